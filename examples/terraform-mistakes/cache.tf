# Provider v4: a `dynamic "rules"` block makes the rules from locals.tf, and one more rule's
# expression is a variable that terraform.tfvars sets.
variable "api_cache_bypass" {
  type = string
}

resource "cloudflare_ruleset" "cache" {
  zone_id = var.zone_id
  name    = "Cache rules"
  kind    = "zone"
  phase   = "http_request_cache_settings"

  dynamic "rules" {
    for_each = local.cache_bypass_rules
    content {
      ref         = rules.value.ref
      description = rules.value.description
      expression  = rules.value.expression
      action      = "set_cache_settings"
      action_parameters {
        cache = false
      }
    }
  }

  rules {
    ref         = "bypass_api"
    description = "Never cache the API's writes"
    expression  = var.api_cache_bypass
    action      = "set_cache_settings"
    action_parameters {
      cache = false
    }
  }
}
