# Two rulesets as Terraform keeps them: `rulesets check examples/terraform` reads the
# expressions inside these strings as the service will, before `terraform apply` does.

variable "zone_id" {
  type = string
}

variable "account_id" {
  type = string
}

variable "office_network" {
  type    = string
  default = "192.0.2.0/24"
}

# Provider v5: `rules` is a list of objects.
resource "cloudflare_ruleset" "waf" {
  zone_id     = var.zone_id
  name        = "WAF custom rules"
  description = "Keeps the admin area to the office"
  kind        = "zone"
  phase       = "http_request_firewall_custom"

  rules = [
    {
      ref         = "admin_from_office"
      description = "The admin area only from the office network"
      expression  = <<-EOT
        starts_with(http.request.uri.path, "/admin")
        and not ip.src in {${var.office_network}}
      EOT
      action      = "block"
    },
    {
      ref         = "old_clients"
      description = "Challenge clients that send no user agent"
      expression  = "http.user_agent eq \"\""
      action      = "managed_challenge"
    },
  ]
}

# Provider v4: one `rules` block a rule.
resource "cloudflare_ruleset" "magic" {
  account_id = var.account_id
  name       = "Magic Transit"
  kind       = "root"
  phase      = "magic_transit"

  rules {
    ref         = "ssh_from_bastions"
    action      = "skip"
    expression  = "ip.src in {198.51.100.0/24} and tcp.dstport == 22"
    description = "SSH from the bastions: no later rule of this ruleset for them"
    action_parameters {
      ruleset = "current"
    }
  }

  rules {
    ref         = "no_ssh_no_telnet"
    action      = "block"
    expression  = "tcp.dstport in {22 23 2323}"
    description = "No SSH from elsewhere, no telnet"
    enabled     = true
  }
}
