import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { loadTerraformParser } from '../../server/src/documents/terraform';
import { moduleNames } from '../../server/src/documents/terraform-module';
import { memoryReader } from './terraform-module-helpers';

function locals(body: string, more: Record<string, string> = {}): Record<string, unknown> {
  return moduleNames('/m', memoryReader({ 'main.tf': `locals {\n${body}\n}\n`, ...more }))!.locals;
}

function local(expression: string, more: Record<string, string> = {}): unknown {
  return locals(`x = ${expression}`, more).x;
}

describe('Terraform evaluator', () => {
  before(async () => {
    await loadTerraformParser();
  });

  it('reads literals, collections and templates', () => {
    assert.equal(local('"ip.src eq 1.2.3.4"'), 'ip.src eq 1.2.3.4');
    assert.equal(local('"a\\tb $${x}"'), 'a\tb ${x}');
    assert.deepEqual(local('[1, "a", true, null]'), [1, 'a', true, null]);
    assert.deepEqual(local('{ b = 1, "a" = 2 }'), { a: 2, b: 1 });
    assert.equal(local('"${1.0} ${true} ${2 + 3}"'), '1 true 5');
    assert.equal(local('"%{ if true }yes%{ else }no%{ endif }"'), 'yes');
    assert.equal(local('"%{ for k, v in { a = 1, b = 2 } }${k}=${v};%{ endfor }"'), 'a=1;b=2;');
    assert.equal(local('<<-EOT\n    ip.src in {1.2.3.4}\n      and true\n  EOT'), 'ip.src in {1.2.3.4}\n  and true\n');
  });

  it('reads locals, variables with defaults and .tfvars, lazily and safe from cycles', () => {
    const values = moduleNames(
      '/m',
      memoryReader({
        'main.tf': 'locals {\n a = "${local.b}-x"\n b = var.v\n c = local.d\n d = local.c\n e = var.w\n f = var.none\n}\n',
        'variables.tf': 'variable "v" { default = "dflt" }\nvariable "w" { default = "dflt" }\nvariable "none" {}\n',
        'terraform.tfvars': 'w = "from-tfvars"\n',
        'b.auto.tfvars': 'w = "from-auto"\n',
      }),
    )!;
    assert.equal(values.locals.a, 'dflt-x');
    assert.equal(values.locals.c, undefined);
    assert.equal(values.locals.e, 'from-auto');
    assert.equal(values.locals.f, undefined);
    assert.equal(values.variables.w, 'from-auto');
  });

  it('evaluates for expressions, conditionals, operators, splats and indexes', () => {
    assert.deepEqual(local('[for k, v in { a = 1, b = 2 } : "${k}${v}" if v > 1]'), ['b2']);
    assert.deepEqual(local('{ for s in ["a", "b", "a"] : s => s... }'), { a: ['a', 'a'], b: ['b'] });
    assert.equal(local('1 == 1 && !false ? "y" : "n"'), 'y');
    assert.equal(local('7 % 3 + 10 / 4'), 3.5);
    assert.deepEqual(local('[{ a = 1 }, { a = 2 }][*].a'), [1, 2]);
    assert.equal(local('{ k = ["x", "y"] }.k[1]'), 'y');
    assert.equal(local('{ k = ["x", "y"] }["k"][0]'), 'x');
  });

  it('leaves what the module cannot know unknown, and contagious', () => {
    assert.equal(local('cloudflare_ruleset.x.id'), undefined);
    assert.equal(local('"ip.src eq ${data.x.y}"'), undefined);
    assert.equal(local('upper(data.x.y)'), undefined);
    assert.equal(local('timestamp()'), undefined);
    assert.equal(local('[for r in data.x.y : r]'), undefined);
  });

  it('computes the functions rule files use', () => {
    assert.equal(local('format("%s and %d %%", "a", 3)'), 'a and 3 %');
    assert.deepEqual(local('formatlist("ip.src eq %s", ["1.1.1.1", "2.2.2.2"])'), ['ip.src eq 1.1.1.1', 'ip.src eq 2.2.2.2']);
    assert.equal(local('join(" or ", ["a", "b"])'), 'a or b');
    assert.deepEqual(local('split(",", "a,b")'), ['a', 'b']);
    assert.deepEqual(local('concat([1], [2, 3])'), [1, 2, 3]);
    assert.deepEqual(local('merge({ a = 1 }, { a = 2, b = 3 })'), { a: 2, b: 3 });
    assert.equal(local('lookup({ a = "x" }, "b", "d")'), 'd');
    assert.equal(local('try({ a = 1 }.b, "fallback")'), 'fallback');
    assert.equal(local('can({ a = 1 }.b)'), false);
    assert.equal(local('coalesce("", "b")'), 'b');
    assert.deepEqual(local('flatten([[1], [2, [3]]])'), [1, 2, 3]);
    assert.deepEqual(local('distinct(["a", "a", "b"])'), ['a', 'b']);
    assert.deepEqual(local('compact(["a", "", null])'), ['a']);
    assert.equal(local('contains(["a"], "a")'), true);
    assert.equal(local('length("abc")'), 3);
    assert.deepEqual(local('keys({ b = 1, a = 2 })'), ['a', 'b']);
    assert.equal(local('lower("AbC")'), 'abc');
    assert.equal(local('upper("abc")'), 'ABC');
    assert.equal(local('title("hello world")'), 'Hello World');
    assert.equal(local('trimspace("  a  ")'), 'a');
    assert.equal(local('trimprefix("xab", "x")'), 'ab');
    assert.equal(local('replace("a.b.c", ".", "-")'), 'a-b-c');
    assert.equal(local('replace("a1b22", "/[0-9]+/", "#")'), 'a#b#');
    assert.equal(local('jsonencode({ b = [1, "<"], a = true })'), '{"a":true,"b":[1,"\\u003c"]}');
    assert.deepEqual(local('jsondecode("{\\"a\\": [1, 2]}")'), { a: [1, 2] });
    assert.deepEqual(local('yamldecode("a: [x, 2]")'), { a: ['x', 2] });
    assert.equal(local('tostring(1.0)'), '1');
    assert.deepEqual(local('toset(["b", "a", "b"])'), ['a', 'b']);
    assert.deepEqual(local('range(3)'), [0, 1, 2]);
    assert.deepEqual(local('zipmap(["a"], [1])'), { a: 1 });
    assert.deepEqual(local('chunklist([1, 2, 3], 2)'), [[1, 2], [3]]);
    assert.equal(local('one(["x"])'), 'x');
    assert.equal(local('max(1, 5, 3)'), 5);
    assert.equal(local('startswith("abc", "ab")'), true);
    assert.deepEqual(local('regexall("[0-9]+", "a1b22")'), ['1', '22']);
    assert.equal(local('element(["a", "b"], 3)'), 'b');
    assert.equal(local('file("rule.txt")', { 'rule.txt': 'ip.src eq 1.1.1.1' }), 'ip.src eq 1.1.1.1');
    assert.equal(local('templatefile("rule.tftpl", { ip = "1.1.1.1" })', { 'rule.tftpl': 'ip.src eq ${ip}' }), 'ip.src eq 1.1.1.1');
  });

  it('never hangs nor grows without end: a string doubled thirty times and a chain of 5,000 locals are unknown', () => {
    const doubled = locals(Array.from({ length: 30 }, (_, i) => `d${i} = ${i === 29 ? '"ab"' : `"\${local.d${i + 1}}\${local.d${i + 1}}"`}`).join('\n'));
    assert.equal(doubled.d0, undefined);
    assert.equal(doubled.d20, 'ab'.repeat(512));
    const chain = locals(Array.from({ length: 5000 }, (_, i) => `c${i} = ${i === 4999 ? '"end"' : `local.c${i + 1}`}`).join('\n'));
    assert.equal(chain.c4990, 'end');
  });

  it('never hangs: deep and wide inputs end unknown', () => {
    assert.equal(local(`${'['.repeat(200)}1${']'.repeat(200)}`), undefined);
    const start = Date.now();
    locals(Array.from({ length: 30 }, (_, i) => `l${i} = [for a in range(1000) : [for b in local.l${i + 1 < 30 ? i + 1 : 0} : b]]`).join('\n'));
    assert.ok(Date.now() - start < 5000);
  });
});

describe('format as go-cty defines it (cty/function/stdlib/format.go, v1.18.1)', () => {
  before(() => loadTerraformParser());

  it('%v writes null as null, %s refuses it; %q quotes as JSON with <, > and & escaped', () => {
    assert.equal(local('format("%v", null)'), 'null');
    assert.equal(local('try(format("%s", null), "refused")'), 'refused');
    assert.equal(local('format("%q", "a<b")'), '"a\\u003cb"');
    assert.equal(local('format("%v %v %.2f", 1.5, true, 2)'), '1.5 true 2.00');
  });

  // The values below are OpenTofu 1.10.6's (tofu console), as test/oracle/tofu-values.test.ts holds them with tofu built.
  it('reads an operand with its traversals, and numbers with an exponent and no fraction', () => {
    assert.deepEqual(locals('n = { a = 2.5, b = [1, 2] }\nx = [-local.n.a, local.n.b[1] + 1, (1 + 2) * 3]').x, [-2.5, 3, 9]);
    assert.deepEqual(locals('a = 1e3\nb = 2\nc = "n ${3e2}"'), { a: 1000, b: 2, c: 'n 300' });
  });

  it('converts a variable to its type, with optional attributes and their defaults', () => {
    const values = moduleNames(
      '/m',
      memoryReader({
        'main.tf': 'variable "flags" {\n  type = object({\n    strict  = bool\n    comment = optional(string, "none")\n    extra   = optional(list(string))\n  })\n  default = { strict = "true" }\n}\nvariable "pair" {\n  type    = tuple([string, number, bool])\n  default = [1.5, "7", "1"]\n}\nvariable "tags" {\n  type    = set(string)\n  default = ["b", "a", "b"]\n}\n',
      }),
    )!;
    assert.deepEqual(values.variables.flags, { comment: 'none', extra: null, strict: true });
    assert.deepEqual(values.variables.pair, ['1.5', 7, true]);
    assert.deepEqual(values.variables.tags, ['a', 'b']);
  });

  it('trims beside strip markers as HCL does, before a flush heredoc measures its indentation', () => {
    assert.equal(local('"a ${"b"} %{~if true~} c %{~endif~} d"'), 'a bcd');
    assert.equal(local('<<-EOT\n    %{~for p in ["/a", "/b"]~}\n    eq "${p}"\n    %{~endfor~}\n  EOT'), '    eq "/a"\n    eq "/b"\n');
  });

  it('knows the functions as go-cty and OpenTofu define them', () => {
    assert.equal(local('format("%s|%d|%q|%05d|%.2f|%t|%v|%%", "a", 42, "q\\"t", 7, 3.14159, true, [1, "b"])'), 'a|42|"q\\"t"|00007|3.14|true|[1,"b"]|%');
    assert.equal(local('format("%v %e %.1f %g %-4d|%x", 1e7, 1234.5678, 0.25, 0.00001, 7, 255)'), '1e+07 1.234568e+03 0.2 1e-05 7   |ff');
    assert.equal(local('format("%.1f", 0.35)'), undefined, 'a tie cty rounds from its 512-bit number: not guessed');
    assert.deepEqual(local('[trimspace("  x \\n"), trimprefix("http.host", "http."), trim("--x--", "-"), chomp("line\\n\\n"), index(["a", "b"], "b"), length("héllo")]'), ['x', 'host', 'x', 'line', 1, 5]);
    assert.deepEqual(local('yamldecode("f: yes\\ng: NO\\nh: \'no\'\\ni: on\\nj: 0x1F\\n")'), { f: true, g: false, h: 'no', i: true, j: 31 });
    assert.equal(local('"${12345678901234} ${1.5}"'), '12345678901234 1.5');
    assert.equal(local('tostring(123456789012345678)'), undefined, 'past 15 digits a double is not the number cty holds');
  });

  it('gives up on directives nested past its bounds without spending the stack', () => {
    const nested = `<<EOT\n${'%{ if true ~}\n'.repeat(5000)}x\n${'%{ endif ~}\n'.repeat(5000)}EOT`;
    assert.equal(local(nested), undefined);
  });
});
