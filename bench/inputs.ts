/**
 * The generated rulesets the benchmarks measure: realistic expressions, all different up to 1,000
 * rules. Past that some repeat (10,000 rules have 6,695 different texts, 50,000 have 31,695), as
 * rules are copied in a real file: the repeats are answered from the expression cache and
 * reported as duplicate rules.
 */

const COUNTRIES = ['BR', 'CN', 'RU', 'KP', 'IR', 'DE', 'FR', 'GB', 'US', 'IN'];

/** A realistic expression, varied by `i`: the first 1,000 are all different texts. */
export function expression(i: number): string {
  const port = 1 + (i % 65000);
  const octet = i % 256;
  const templates = [
    () => `tcp.dstport in {${port} ${port + 1} 8000..8100}`,
    () => `ip.src in {192.0.2.${octet} 198.51.100.0/24} and tcp.dstport == ${port}`,
    () => `ip.src.country in {"${COUNTRIES[i % 10]}" "${COUNTRIES[(i + 3) % 10]}"} and not ip.dst in {203.0.113.${octet}}`,
    () => `ip.src in $svc.anonymizer or ip.src in $svc.malware or udp.dstport == ${port}`,
    () => `ip.proto == "udp" and udp.srcport in {53 123 1900 11211} and ip.len > ${500 + (i % 1000)}`,
    () => `tcp.flags.syn and not tcp.flags.ack and tcp.dstport in {${port}} and ip.ttl < ${1 + (i % 200)}`,
    () => `(ip.dst in {2001:db8::${(i % 65535).toString(16)}/128} or ip.src.asnum == ${64496 + i}) and icmp.type == 8`,
    () => `bit_slice(udp, 64, 72) == ${i % 256} and ip.geoip.country == "${COUNTRIES[i % 10]}"`,
  ];
  return templates[i % templates.length]();
}

/**
 * A realistic expression of a WAF custom rule, varied by `i` (every text different, 10,000 rules too): fields of every
 * type, calls, index steps and `[*]` under `any`. Every one is accepted by the reference engine.
 */
export function httpExpression(i: number): string {
  const octet = i % 256;
  const templates = [
    () => `http.host eq "shop${i}.example.com" and http.request.uri.path contains "/admin"`,
    () => `ip.src in {192.0.2.${octet} 198.51.100.0/24} and http.request.method in {"POST" "PUT" "DELETE"} and http.request.uri.path ne "/health/${i}"`,
    () => `ip.src.country in {"${COUNTRIES[i % 10]}" "${COUNTRIES[(i + 3) % 10]}"} and not cf.client.bot and ip.src.asnum != ${64496 + i}`,
    () => `lower(http.request.uri.path) matches "^/wp-(admin|login)/${i}" or http.request.uri.query contains "id=${i}"`,
    () => `any(http.request.headers["x-api-key"][*] == "key-${i}") and http.request.uri.path eq "/api/v${i % 5}/orders"`,
    () => `starts_with(http.request.uri.path, "/static/${i}") and not http.request.uri.path.extension in {"js" "css" "png"}`,
    () => `cf.threat_score gt ${i % 100} and http.user_agent contains "bot${i}"`,
    () => `http.request.uri.args["token"][0] eq "t${i}" or len(http.request.uri.query) gt ${100 + (i % 900)}`,
  ];
  return templates[i % templates.length]();
}

/** A WAF custom ruleset (`http_request_firewall_custom`) of `rules` rules, shaped as rulesetObject's. */
export function httpRulesetObject(rules: number) {
  return {
    name: `Generated HTTP ${rules}`,
    kind: 'zone',
    phase: 'http_request_firewall_custom',
    description: 'Generated for the benchmark',
    rules: Array.from({ length: rules }, (_, i) => ({
      action: i % 10 === 0 ? 'skip' : i % 10 === 5 ? 'managed_challenge' : 'block',
      ...(i % 10 === 0 ? { action_parameters: { ruleset: 'current' } } : {}),
      expression: httpExpression(i),
      description: `Rule ${i}`,
      enabled: true,
    })),
  };
}

export function rulesetObject(rules: number) {
  return {
    name: `Generated ${rules}`,
    kind: 'root',
    phase: 'magic_transit',
    description: 'Generated for the benchmark',
    rules: Array.from({ length: rules }, (_, i) => ({
      action: i % 10 === 0 ? 'skip' : 'block',
      ...(i % 10 === 0 ? { action_parameters: { ruleset: 'current' } } : {}),
      expression: expression(i),
      description: `Rule ${i}`,
      enabled: true,
    })),
  };
}

/** An HCL string literal of `value`: JSON's escapes are HCL's, and `${` and `%{` are doubled so Terraform reads them as text. */
function hclString(value: string): string {
  return JSON.stringify(value).replace(/\$\{/g, '$${').replace(/%\{/g, '%%{');
}

/**
 * A ruleset object (httpRulesetObject's, rulesetObject's) as a `.tf` file of one
 * `cloudflare_ruleset` resource, in the provider's v4 shape (a `rules { … }` block a rule) or
 * its v5 shape (`rules = [{ … }, …]`): the same rules, for the rows that put Terraform beside YAML.
 */
export function terraformOfObject(object: ReturnType<typeof httpRulesetObject>, shape: 'v4' | 'v5'): string {
  const lines = [
    `resource "cloudflare_ruleset" "generated" {`,
    `  zone_id     = "0123456789abcdef0123456789abcdef"`,
    `  name        = ${hclString(object.name)}`,
    `  description = ${hclString(object.description)}`,
    `  kind        = ${hclString(object.kind)}`,
    `  phase       = ${hclString(object.phase)}`,
  ];
  if (shape === 'v5') lines.push('  rules = [');
  const indent = shape === 'v4' ? '    ' : '      ';
  for (const rule of object.rules) {
    lines.push(shape === 'v4' ? '  rules {' : '    {', `${indent}action      = ${hclString(rule.action)}`);
    if (rule.action_parameters) {
      if (shape === 'v4') lines.push('    action_parameters {', `      ruleset = ${hclString(rule.action_parameters.ruleset)}`, '    }');
      else lines.push(`      action_parameters = { ruleset = ${hclString(rule.action_parameters.ruleset)} }`);
    }
    lines.push(`${indent}expression  = ${hclString(rule.expression)}`, `${indent}description = ${hclString(rule.description)}`, `${indent}enabled     = ${rule.enabled}`, shape === 'v4' ? '  }' : '    },');
  }
  if (shape === 'v5') lines.push('  ]');
  lines.push('}', '');
  return lines.join('\n');
}

/** The object with a mistake in every rule's expression: its first field misspelt (`http.host` → `https.host`), or its first function (`lower(` → `xlower(`). */
export function withMistakes<T extends { rules: { expression: string }[] }>(object: T): T {
  return { ...object, rules: object.rules.map((rule) => ({ ...rule, expression: rule.expression.replace(/^(\w+)\./, '$1s.').replace(/^(\w+)\(/, 'x$1(') })) };
}
