/**
 * Requests as test cases give them (request.ts): fields read by their catalogue types, the
 * conveniences and what each derives (and when the docs say too little to derive), calls whose
 * value the case states, and the errors for bad input.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { parseRequest, RequestError, extensionOf, type Request } from '../../server/src/evaluation/request';
import type { Value } from '../../server/src/evaluation/value';

const PHASE = 'http_request_firewall_custom';

function read(input: object, phase: string | undefined = PHASE): Request {
  return parseRequest(input, { phase });
}

/** A value as plain data: strings for String, numbers as text, arrays and objects. */
function plainValue(value: Value | undefined): unknown {
  if (value === undefined) return undefined;
  switch (value.type) {
    case 'Bytes':
      return new TextDecoder().decode(value.bytes);
    case 'Integer':
      return `${value.value}`;
    case 'Boolean':
      return value.value;
    case 'Ip':
      return `ip:${value.value}`;
    case 'Array':
      return value.items.map(plainValue);
    case 'Map':
      return Object.fromEntries(value.keys.map((k) => [k, plainValue(value.byKey.get(k))]));
  }
}

function field(request: Request, name: string): unknown {
  return plainValue(request.fields.get(name));
}

function refuses(input: object, pattern: RegExp, key?: string, path?: readonly (string | number)[], phase: string | undefined = PHASE): void {
  assert.throws(
    () => read(input, phase),
    (error: unknown) => {
      assert.ok(error instanceof RequestError, String(error));
      assert.match(error.message, pattern);
      if (key !== undefined) assert.equal(error.key, key);
      if (path !== undefined) assert.deepEqual(error.path, path);
      return true;
    },
  );
}

describe('requests: fields by their catalogue types', () => {
  it('reads every kind of type', () => {
    const request = read({
      'http.host': 'example.com',
      'cf.bot_management.score': 12,
      'cf.threat_score': '0x10',
      'ip.src': '2001:db8::1',
      ssl: false,
      'http.request.headers.names': ['Host', 'Accept'],
      'http.request.headers': { accept: ['text/html', 'application/json'] },
      'cf.bot_management.detection_ids': [1, 2],
      'http.request.body.multipart.names': [['a'], ['b', 'c']],
      'cf.llm.prompt.custom_topic_categories': { competitors: 20 },
    });
    assert.equal(field(request, 'http.host'), 'example.com');
    assert.equal(field(request, 'cf.bot_management.score'), '12');
    assert.equal(field(request, 'cf.threat_score'), '16');
    assert.equal(request.fields.get('ip.src')?.type, 'Ip');
    assert.equal(field(request, 'ssl'), false);
    assert.deepEqual(field(request, 'http.request.headers.names'), ['Host', 'Accept']);
    assert.deepEqual(field(request, 'http.request.headers'), { accept: ['text/html', 'application/json'] });
    assert.deepEqual(field(request, 'cf.bot_management.detection_ids'), ['1', '2']);
    assert.deepEqual(field(request, 'http.request.body.multipart.names'), [['a'], ['b', 'c']]);
    assert.deepEqual(field(request, 'cf.llm.prompt.custom_topic_categories'), { competitors: '20' });
  });

  it('keeps a map\'s keys in the order of their UTF-8 bytes, as wirefilter walks them', () => {
    // "é" (C3 A9) sorts after "z"; "😀" (F0 …) after "￿" (EF BF BF) in bytes, before it in UTF-16 units.
    const request = read({ 'http.request.headers': { z: ['1'], é: ['2'], '😀': ['3'], '\uffff': ['4'], a: ['5'] } });
    const headers = request.fields.get('http.request.headers');
    assert.equal(headers?.type, 'Map');
    assert.deepEqual(headers.keys, ['a', 'z', 'é', '\uffff', '😀']);
  });

  it('names the field and the type of a value of the wrong type, and where inside it', () => {
    refuses({ 'http.host': 1 }, /^expected a string \(String\) for `http\.host`, found `1`$/, 'http.host', []);
    refuses({ 'cf.bot_management.score': 'high' }, /expected an integer \(Integer\) for `cf\.bot_management\.score`/, 'cf.bot_management.score');
    refuses({ ssl: 'yes' }, /expected true or false \(Boolean\) for `ssl`/);
    refuses({ 'ip.src': '1.2.3' }, /expected an IP address \(IP address\) for `ip\.src`/);
    refuses({ 'http.request.headers.names': 'Host' }, /expected an array of strings \(Array<String>\)/);
    refuses({ 'http.request.headers': { accept: 'text/html' } }, /expected an array of strings \(Array<String>\) for `http\.request\.headers` at \["accept"\], found `"text\/html"`/, 'http.request.headers', ['accept']);
    refuses({ 'http.request.body.multipart.names': [['a'], [1]] }, /for `http\.request\.body\.multipart\.names` at \[1\]\[0\]/, undefined, [1, 0]);
    refuses({ 'http.request.headers': ['x'] }, /expected an object of arrays of strings \(Map<Array<String>>\)/);
  });

  it('holds Integer fields to their documented bounds', () => {
    refuses({ 'cf.edge.server_port': 70000 }, /70000 is outside the values of `cf\.edge\.server_port`/);
  });

  it('refuses values of a form the field never has', () => {
    refuses({ 'http.request.method': 'get' }, /`http\.request\.method` is uppercase .*write "GET", not "get"/);
    refuses({ 'http.request.uri.path.extension': 'PHP' }, /is lowercase: write "php"/);
    refuses({ 'ip.src.continent': 'Europe' }, /"Europe" is not a value of `ip\.src\.continent`, which is one of "AF"/);
    refuses({ 'cf.waf.content_scan.obj_results': ['clean', 'bad'] }, /"bad" is not a value of `cf\.waf\.content_scan\.obj_results`/, undefined, [1]);
  });

  it('an unknown key is an error with the nearest names', () => {
    refuses({ 'http.hots': 'a' }, /^unknown field `http\.hots` in the request; did you mean `http\.host`/, 'http.hots');
    refuses({ headrs: {} }, /did you mean .*`headers`/);
    refuses({ 'tcp.dstport': 22 }, /unknown field `tcp\.dstport` in the request/);
  });

  it('a field the docs give other phases only is an error in this one', () => {
    refuses({ 'http.response.code': 404 }, /`http\.response\.code` is not a field of phase `http_request_firewall_custom`/);
    assert.equal(field(read({ 'http.response.code': 404 }, 'http_response_headers_transform'), 'http.response.code'), '404');
  });

  it('is read by the HTTP catalogue when the phase is not an HTTP one', () => {
    assert.equal(field(read({ 'http.host': 'a' }, undefined), 'http.host'), 'a');
  });
});

describe('requests: url', () => {
  it('gives the URI fields, raw and normalized alike when the URL is in normal form', () => {
    const request = read({ url: 'https://example.com/shop/Cart.PHP?item=1&item=2&q=red+apples#top' });
    for (const prefix of ['', 'raw.']) {
      assert.equal(field(request, `${prefix}http.request.full_uri`), 'https://example.com/shop/Cart.PHP?item=1&item=2&q=red+apples');
      assert.equal(field(request, `${prefix}http.request.uri`), '/shop/Cart.PHP?item=1&item=2&q=red+apples');
      assert.equal(field(request, `${prefix}http.request.uri.path`), '/shop/Cart.PHP');
      assert.equal(field(request, `${prefix}http.request.uri.query`), 'item=1&item=2&q=red+apples');
      // No decoding: `+` stays (the docs' example value is "red+apples").
      assert.deepEqual(field(request, `${prefix}http.request.uri.args`), { item: ['1', '2'], q: ['red+apples'] });
      assert.deepEqual(field(request, `${prefix}http.request.uri.args.names`), ['item', 'item', 'q']);
      assert.deepEqual(field(request, `${prefix}http.request.uri.args.values`), ['1', '2', 'red+apples']);
    }
    assert.equal(field(request, 'http.request.uri.path.extension'), 'php');
    assert.equal(field(request, 'raw.http.request.uri.path.extension'), 'PHP');
    assert.equal(field(request, 'http.host'), 'example.com');
    assert.equal(field(request, 'ssl'), true);
    assert.equal(field(read({ url: 'http://example.com' }), 'ssl'), false);
  });

  it('an empty path is `/`, an absent query is empty, a path alone gives no host', () => {
    const request = read({ url: 'https://example.com' });
    assert.equal(field(request, 'http.request.uri.path'), '/');
    assert.equal(field(request, 'http.request.uri'), '/');
    assert.equal(field(request, 'http.request.uri.query'), '');
    assert.deepEqual(field(request, 'http.request.uri.args'), {});
    const path = read({ url: '/a/b?x=1' });
    assert.equal(field(path, 'http.request.uri'), '/a/b?x=1');
    assert.equal(path.fields.has('http.host'), false);
    assert.equal(path.fields.has('http.request.full_uri'), false);
    assert.equal(path.fields.has('ssl'), false);
  });

  it('computes the extension as the docs\' table does', () => {
    const table: readonly [string, string][] = [
      ['/foo', ''],
      ['/foo.mp3', 'mp3'],
      ['/.mp3', ''],
      ['/.foo.mp3', 'mp3'],
      ['/foo.tar.bz2', 'bz2'],
      ['/foo.', ''],
      ['/foo.MP3', 'MP3'],
      ['/a.b/c', ''],
    ];
    for (const [path, extension] of table) assert.equal(extensionOf(path), extension, path);
    assert.equal(field(read({ url: '/foo.MP3' }), 'http.request.uri.path.extension'), 'mp3');
  });

  it('does not derive what URL normalization would change, and says why', () => {
    const cases: readonly [string, RegExp][] = [
      ['/%68ello', /an escaped unreserved character \(`%68`\)/],
      ['/a%2fb', /a lowercase escape \(`%2f`\)/],
      ['/a b', /neither unreserved nor reserved \(` `\)/],
      ['/a/../b', /a dot segment/],
      ['/a//b', /a `\/\/`/],
      ['/%zz', /a `%` that starts no escape/],
    ];
    for (const [path, why] of cases) {
      const request = read({ url: `https://example.com${path}` });
      assert.equal(request.fields.has('http.request.uri.path'), false, path);
      assert.match(request.underivable.get('http.request.uri.path') ?? '', why);
      assert.match(request.underivable.get('http.request.uri') ?? '', /normalization/);
      assert.equal(field(request, 'raw.http.request.uri.path'), path, path);
      // The query is in normal form: its fields are derived.
      assert.equal(field(request, 'http.request.uri.query'), '');
    }
    const query = read({ url: 'https://example.com/search?q=<script>' });
    assert.equal(field(query, 'http.request.uri.path'), '/search');
    assert.equal(query.fields.has('http.request.uri.query'), false);
    assert.equal(query.fields.has('http.request.uri.args'), false);
    assert.equal(field(query, 'raw.http.request.uri.query'), 'q=<script>');
    assert.deepEqual(field(query, 'raw.http.request.uri.args'), { q: ['<script>'] });
  });

  it('does not derive the arguments of a query the docs do not describe, nor the host of a URL with a port', () => {
    const bare = read({ url: '/?debug&a=1' });
    assert.equal(bare.fields.has('http.request.uri.args'), false);
    assert.match(bare.underivable.get('http.request.uri.args.names') ?? '', /"debug" has no `=`/);
    assert.equal(field(bare, 'http.request.uri.query'), 'debug&a=1');
    assert.match(read({ url: '/?a=1&&b=2' }).underivable.get('http.request.uri.args') ?? '', /empty argument/);
    const port = read({ url: 'https://example.com:8443/' });
    assert.equal(port.fields.has('http.host'), false);
    assert.match(port.underivable.get('http.host') ?? '', /gives a port \(`:8443`\)/);
  });

  it('refuses what is not an http(s) URL or a path', () => {
    refuses({ url: 'example.com/a' }, /expected `url` as an absolute URL/, 'url');
    refuses({ url: 'ftp://example.com/a' }, /the scheme `ftp`/);
    refuses({ url: 'https://user@example.com/' }, /user information/);
    refuses({ url: 'https:///a' }, /no host/);
    refuses({ url: 42 }, /expected `url` as a string/);
  });
});

describe('requests: method and headers', () => {
  it('gives the method, uppercase only', () => {
    assert.equal(field(read({ method: 'PATCH' }), 'http.request.method'), 'PATCH');
    refuses({ method: 'post' }, /write "POST", not "post"/, 'method');
  });

  it('gives the header map (names lowercased), the names as written and the values, in order', () => {
    const request = read({ headers: { Host: 'example.com', 'X-Tag': ['a', 'b'], 'x-tag': 'c', 'User-Agent': 'curl/8.5.0' } });
    assert.deepEqual(field(request, 'http.request.headers'), { host: ['example.com'], 'user-agent': ['curl/8.5.0'], 'x-tag': ['a', 'b', 'c'] });
    assert.deepEqual(field(request, 'http.request.headers.names'), ['Host', 'X-Tag', 'X-Tag', 'x-tag', 'User-Agent']);
    assert.deepEqual(field(request, 'http.request.headers.values'), ['example.com', 'a', 'b', 'c', 'curl/8.5.0']);
    assert.equal(field(request, 'http.host'), 'example.com');
    assert.equal(field(request, 'http.user_agent'), 'curl/8.5.0');
  });

  it('gives each single-header field from its header, and says why not when it is absent or repeated', () => {
    const request = read({ headers: { Referer: 'https://a.example/', 'X-Forwarded-For': '203.0.113.1, 198.51.100.2', Cookie: 'a=1' } });
    assert.equal(field(request, 'http.referer'), 'https://a.example/');
    assert.equal(field(request, 'http.x_forwarded_for'), '203.0.113.1, 198.51.100.2');
    assert.equal(field(request, 'http.cookie'), 'a=1');
    assert.equal(request.fields.has('http.user_agent'), false);
    assert.match(request.underivable.get('http.user_agent') ?? '', /no user-agent header, and the docs do not say what `http\.user_agent` holds then/);
    const twice = read({ headers: { 'User-Agent': ['a', 'b'] } });
    assert.match(twice.underivable.get('http.user_agent') ?? '', /2 times/);
    assert.equal(read({}).underivable.has('http.user_agent'), false, 'no headers at all: plainly unknown');
  });

  it('gives the cookies map from the Cookie header: names URL-decoded, same names merged, values as sent', () => {
    const request = read({ headers: { Cookie: 'session=A%20b; theme=dark;  s%65ssion=2; empty=' } });
    assert.deepEqual(field(request, 'http.request.cookies'), { empty: [''], session: ['A%20b', '2'], theme: ['dark'] });
    assert.deepEqual(field(read({ headers: { Accept: '*/*' } }), 'http.request.cookies'), {});
    for (const [cookie, why] of [
      ['a=1; b', /"b" has no `=`/],
      ['a=1;;b=2', /empty pair/],
      ['a+b=1', /"a\+b" holds a `\+`/],
      ['%zz=1', /not UTF-8 text/],
      ['a=1 ; b=2', /"a=1 " ends in a space/],
    ] as const) {
      const bad = read({ headers: { Cookie: cookie } });
      assert.equal(bad.fields.has('http.request.cookies'), false, cookie);
      assert.match(bad.underivable.get('http.request.cookies') ?? '', why);
    }
  });

  it('an explicit field wins over a derived one, and two conveniences must agree', () => {
    const request = read({ headers: { 'User-Agent': 'curl' }, 'http.user_agent': 'Mozilla/5.0', url: 'https://example.com/', 'http.request.uri.path': '/other' });
    assert.equal(field(request, 'http.user_agent'), 'Mozilla/5.0');
    assert.equal(field(request, 'http.request.uri.path'), '/other');
    assert.equal(field(read({ url: 'https://example.com/', headers: { Host: 'example.com' } }), 'http.host'), 'example.com');
    refuses({ url: 'https://example.com/', headers: { Host: 'other.example' } }, /`headers` and `url` give `http\.host` different values/);
    assert.equal(field(read({ url: 'https://example.com/', headers: { Host: 'other.example' }, 'http.host': 'third.example' }), 'http.host'), 'third.example');
    // An explicit field also wins over one the conveniences cannot derive.
    const explicit = read({ headers: {}, 'http.user_agent': '' });
    assert.equal(explicit.underivable.has('http.user_agent'), false);
  });

  it('refuses header values that are not strings, with the fix', () => {
    refuses({ headers: { 'Content-Length': 12 } }, /expected the value of the header `Content-Length` as a string, found `12`; quote it: "12"/, 'headers', ['Content-Length']);
    refuses({ headers: { A: ['x', 1] } }, /as a string \(or an array of strings\)/, 'headers', ['A', 1]);
    refuses({ headers: { A: [] } }, /`A` has no value/);
    refuses({ headers: 'User-Agent: x' }, /expected `headers` as an object/);
  });
});

describe('requests: stated call values and lists', () => {
  it('reads a call as the key, spaces and quoting aside, its value by the call type', () => {
    const request = read({ 'is_jwt_valid( r"6f4a" )': true, 'sha256(http.host)': 'abc', 'hash_in_range(1, 100, ip.src)': 7 });
    assert.deepEqual(
      [...request.calls.keys()],
      ['is_jwt_valid("6f4a")', 'sha256(http.host)', 'hash_in_range(1, 100, ip.src)'],
    );
    assert.deepEqual(plainValue(request.calls.get('is_jwt_valid("6f4a")')), true);
    refuses({ 'is_jwt_valid("x")': 'yes' }, /expected true or false \(Boolean\) for the call/);
    refuses({ 'is_jwt_vaild("x")': true }, /unknown function `is_jwt_vaild`; did you mean `is_jwt_valid`/);
    refuses({ 'lower(': 'x' }, /is neither a field nor a call/);
  });

  it('reads lists as a packet does', () => {
    const request = read({ $lists: { '$known_bots': true, office: ['192.0.2.0/24'] } });
    assert.deepEqual(request.lists.get('known_bots'), { membership: true });
    assert.equal((request.lists.get('office') as readonly unknown[]).length, 1);
    refuses({ $lists: { 'Bad-Name': true } }, /is not a list name/, '$lists');
  });

  it('refuses what is not an object', () => {
    refuses([] as unknown as object, /expected the request as an object of field values/);
  });
});

describe('requests nested 100,000 levels deep (as `--request JSON` may give them)', () => {
  const deep = (n: number) => JSON.parse('['.repeat(n) + '1' + ']'.repeat(n)) as unknown;
  it('is a RequestError showing the first characters, from every key', () => {
    for (const input of [
      deep(100_000),
      { 'http.host': deep(100_000) },
      { 'http.request.headers': { a: deep(100_000) } },
      { 'http.request.body.multipart.names': [deep(100_000)] },
      { headers: { A: deep(100_000) } },
      { url: deep(100_000) },
      { method: deep(100_000) },
      { $lists: deep(100_000) },
      { 'is_jwt_valid("x")': deep(100_000) },
    ]) {
      assert.throws(
        () => read(input as object),
        (error: unknown) => error instanceof RequestError && /found `[[{].{0,60}`/.test(error.message) && error.message.length < 400,
        JSON.stringify(Object.keys(input as object)),
      );
    }
  });
});
