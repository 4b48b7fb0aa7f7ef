# The value of cache.tf's variable, checked here as the expression it becomes.
api_cache_bypass = "http.host eq \"api.example.com\" and http.request.method in {\"POST\" \"put\"}"
