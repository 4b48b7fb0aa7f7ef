# Firewall Rules as provider v4 wrote them. They ended on 2025-06-15: each resource says so, and
# `rulesets migrate-firewall-rules examples/terraform-mistakes/legacy.tf` (or the quick fix in
# the editor) writes the cloudflare_ruleset of custom rules that takes them over. The filter's
# expression is checked as a custom rule's meanwhile.

resource "cloudflare_filter" "wordpress" {
  zone_id     = var.zone_id
  description = "WordPress logins from outside the office"
  expression  = "http.request.uri.path contains \"/wp-login.php\" and not ip.src in {192.0.2.0/24} and http.request.metod eq \"POST\""
}

resource "cloudflare_firewall_rule" "wordpress" {
  zone_id     = var.zone_id
  description = "Challenge WordPress logins from outside the office"
  filter_id   = cloudflare_filter.wordpress.id
  action      = "managed_challenge"
}
