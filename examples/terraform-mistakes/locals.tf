# Rules kept as data: cache.tf's `dynamic "rules"` block makes one rule of each item, and each
# expression is checked here, where it is written, in the phase of the resource that uses it.
locals {
  cache_bypass_rules = [
    {
      ref         = "bypass_admin"
      description = "Never cache the admin pages"
      expression  = "starts_with(http.request.uri.path, \"/admin/\")"
    },
    {
      ref         = "bypass_signed_in"
      description = "Never cache for signed-in visitors"
      expression  = "http.cookies contains \"session=\""
    },
  ]
}
