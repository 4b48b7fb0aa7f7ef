# Three cloudflare_ruleset resources with the mistakes `terraform apply` would find, found
# here on their characters instead: provider v4 blocks, a provider v5 list, heredocs,
# escaped quotes and interpolations (which are Terraform's to fill in, and never reported).

variable "zone_id" {
  type = string
}

variable "account_id" {
  type = string
}

variable "blocked_path" {
  type    = string
  default = "/wp-admin"
}

variable "allowed_ports" {
  type    = list(number)
  default = [22, 443]
}

# Provider v4: one `rules` block a rule.
resource "cloudflare_ruleset" "waf" {
  zone_id = var.zone_id
  name    = "WAF custom rules"
  kind    = "zone"
  phase   = "http_request_firewall_custom"

  rules {
    action      = "block"
    expression  = "http.hots eq \"admin.example.com\""
    description = "Block the admin host"
    enabled     = true
  }

  rules {
    action      = "block"
    expression  = "starts_with(http.request.uri.path, \"${var.blocked_path}\")"
    description = "Block a path Terraform fills in"
  }

  rules {
    action      = "managed_challenge"
    expression  = "ip.src.country in {\"cn\" \"RU\"}"
    description = "Challenge two countries"
  }
}

# Provider v5: `rules` is a list of objects.
resource "cloudflare_ruleset" "redirects" {
  zone_id = var.zone_id
  name    = "Redirects"
  kind    = "zone"
  phase   = "http_request_dynamic_redirect"

  rules = [
    {
      ref         = "old_blog"
      description = "Old blog paths to the new host"
      expression  = <<-EOT
        lowr(http.request.uri.path) matches "^/blog/"
      EOT
      action      = "redirect"
      action_parameters = {
        from_value = {
          status_code = 301
          target_url = {
            expression = "concat(\"https://blog.example.com\", http.request.uri.pat)"
          }
          preserve_query_string = true
        }
      }
    },
    {
      ref         = "old_shop"
      description = "The old shop is gone"
      expression  = "http.request.uri.path eq \"/shop\""
      action      = "block"
    },
  ]
}

# A packet phase, with a heredoc and an interpolation.
resource "cloudflare_ruleset" "magic" {
  account_id = var.account_id
  name       = "Magic Transit"
  kind       = "root"
  phase      = "magic_transit"

  rules = [
    {
      action     = "block"
      expression = <<EOT
tcp.dstport in {22, 3389} and not ip.src in {192.0.2.0/24}
EOT
    },
    {
      action     = "skip"
      expression = "tcp.dstport in {${join(" ", var.allowed_ports)}}"
      action_parameters = {
        ruleset = "current"
      }
    },
    {
      action     = "block"
      expression = "udp.dstport = 53"
    },
  ]
}
