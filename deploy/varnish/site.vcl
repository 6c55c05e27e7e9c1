vcl 4.1;

# Varnish in front of two or more instances of the site (docs/deploying.md,
# ADR 068). tests/proxy starts Varnish with this very file.
#
# What it does:
# - caches public pages for as long as the site's Cache-Control allows
#   (s-maxage, from CDN_SMAXAGE), and serves a stale copy while it refetches
#   (stale-while-revalidate) or while no instance can answer
#   (stale-if-error);
# - never caches the admin (/admin, /api/...), a homeowner's or an insurer's
#   private pages (/my/, /claim/, /feedback/), a request with a session
#   cookie or a bearer token, a POST, or an answer that sets a cookie or
#   says private or no-store;
# - spreads requests over the instances that pass their readiness check
#   (GET /healthz?ready=1), and tries a GET that could not reach one
#   instance once more on the next;
# - drops the pages the site names in its PURGE requests (PROXY_PURGE_URLS),
#   accepted only from the addresses in the purgers list.
#
# The instances' addresses and the purgers list are the deployment's own:
# they live in backends.vcl, found on Varnish's vcl_path
# (deploy/varnish/backends.vcl.example shows one).
#
# Check a change with: varnishd -C -f site.vcl -p vcl_path=<folder of backends.vcl>

import directors;
import std;

# An instance is in the pool while it is ready: 503 during its warm-up and
# from the moment it is told to stop (it keeps serving for SHUTDOWN_DRAIN,
# which must outlast 2 failed probes: about 2 s here).
probe ready {
    .request =
        "GET /healthz?ready=1 HTTP/1.1"
        "Host: varnish-probe"
        "Connection: close"
        "User-Agent: varnish-probe";
    .expected_response = 200;
    .interval = 1s;
    .timeout = 1s;
    .window = 3;
    .threshold = 2;
    .initial = 1;
}

sub vcl_init {
    new site = directors.round_robin();
}

# backends.vcl declares each instance (with .probe = ready), adds it to the
# director in a vcl_init of its own (Varnish runs every vcl_init in order),
# and lists the purgers.
include "backends.vcl";

sub vcl_recv {
    # Internal marks between restarts; a client cannot set them.
    if (req.restarts == 0) {
        unset req.http.X-Stale-If-Error;
        unset req.http.X-Fetch-Fresh;
        unset req.http.X-Cache-State;
    }
    set req.backend_hint = site.backend();
    set req.http.Host = req.http.Host.lower();

    # The site drops a changed page: every stored variant of it (gzip or
    # not). The answer is 200 whether or not a copy was stored.
    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        return (purge);
    }

    # Forms, uploads, sign-in and every other write reach an instance.
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    # The admin and its API, the private pages (the token in the address
    # is the key), and what only an instance can answer.
    if (req.url ~ "^/(admin|api)([/?]|$)" ||
        req.url ~ "^/(my|claim|feedback)/" ||
        req.url ~ "^/(healthz|metrics)([/?]|$)") {
        return (pass);
    }
    # A signed-in owner or staff member (a session cookie or a bearer
    # token) always gets an instance's answer.
    if (req.http.Authorization ||
        req.http.Cookie ~ "(^|;\s*)(__Host-)?admin_session=") {
        return (pass);
    }
    # Public pages are the same for every visitor and the site reads no
    # other cookie: analytics or advertising cookies must not split the
    # cache.
    unset req.http.Cookie;
    # Campaign parameters are read by the page's script from the address
    # bar, never by the server: one stored copy serves every campaign, and
    # the site's purge of a path reaches the visitors who came from an ad.
    if (req.url ~ "[?&](utm_[a-z]+|gclid|gbraid|wbraid|fbclid|msclkid)=") {
        set req.url = regsuball(req.url, "(?<=[?&])(utm_[a-z]+|gclid|gbraid|wbraid|fbclid|msclkid)=[^&]*(&|$)", "");
        set req.url = regsub(req.url, "[?&]+$", "");
    }

    if (req.http.X-Stale-If-Error) {
        # No instance answered: any stored copy within its stale-if-error
        # window will do (the object's own grace; req.grace survives a
        # restart, so the limit set below is lifted here).
        set req.grace = 3650d;
    } elsif (req.http.X-Fetch-Fresh) {
        # vcl_hit found only a copy too old to serve while the instances
        # are up: look again, allowing none, so this is a miss.
        set req.grace = 0s;
    }
    return (hash);
}

sub vcl_hit {
    if (obj.ttl >= 0s) {
        set req.http.X-Cache-State = "HIT";
        return (deliver);
    }
    # Expired. Within the site's stale-while-revalidate the stored copy is
    # served and Varnish refetches it in the background.
    if (obj.ttl + std.duration(real = std.real(obj.http.X-Swr, 0.0)) >= 0s) {
        set req.http.X-Cache-State = "STALE";
        return (deliver);
    }
    # Past it: the copy is served only when no instance can answer
    # (stale-if-error).
    if (req.http.X-Stale-If-Error || !std.healthy(req.backend_hint)) {
        set req.http.X-Cache-State = "STALE-IF-ERROR";
        return (deliver);
    }
    set req.http.X-Fetch-Fresh = "1";
    return (restart);
}

sub vcl_miss {
    set req.http.X-Cache-State = "MISS";
}

sub vcl_pass {
    set req.http.X-Cache-State = "PASS";
}

sub vcl_backend_response {
    # A failed background refresh keeps the stored copy.
    if (bereq.is_bgfetch && beresp.status >= 500) {
        return (abandon);
    }
    if (beresp.status >= 500) {
        if (!bereq.uncacheable && !bereq.http.X-Stale-If-Error) {
            # The client side looks for a stale copy (vcl_synth).
            return (abandon);
        }
        # No stale copy either: the instance's own error page, not kept.
        set beresp.ttl = 1s;
        set beresp.grace = 0s;
        set beresp.uncacheable = true;
        return (deliver);
    }
    # Only what the site says may be kept is kept: an answer without
    # Cache-Control (a redirect, a not-found page) is fetched every time
    # rather than for Varnish's default two minutes.
    if (!beresp.http.Cache-Control && !beresp.http.Expires) {
        set beresp.ttl = 0s;
    }
    # Varnish took s-maxage (or max-age) as the TTL and
    # stale-while-revalidate as the grace; without the directive there is
    # no serving stale while the instances are up.
    if (beresp.http.Cache-Control !~ "stale-while-revalidate=") {
        set beresp.grace = 0s;
    }
    set beresp.http.X-Swr = beresp.grace;
    # stale-if-error (RFC 5861) becomes the grace: how long a stored copy
    # may still be served when no instance answers. vcl_hit tells the two
    # windows apart.
    if (beresp.http.Cache-Control ~ "stale-if-error=[0-9]+") {
        set beresp.grace = std.duration(regsub(beresp.http.Cache-Control, "^.*stale-if-error=([0-9]+).*$", "\1s"), beresp.grace);
    }
    # Varnish keeps nothing longer than a day, whatever the site allows
    # browsers (a year for hashed assets and media): a photo the owner
    # deletes leaves the proxy by the next day.
    if (beresp.ttl > 1d) {
        set beresp.ttl = 1d;
    }
    # Then Varnish's own rules (builtin.vcl): an answer with Set-Cookie,
    # private, no-cache or no-store, or without a TTL, is never stored.
}

sub vcl_backend_error {
    # A failed background refresh keeps the stored copy.
    if (bereq.is_bgfetch) {
        return (abandon);
    }
    # A GET that could not reach one instance tries the next (a request
    # that reached one is never sent twice: a form could be stored twice).
    if (bereq.retries < 1 && (bereq.method == "GET" || bereq.method == "HEAD")) {
        return (retry);
    }
    if (!bereq.uncacheable && !bereq.http.X-Stale-If-Error) {
        return (abandon);
    }
    set beresp.http.Content-Type = "text/html; charset=utf-8";
    set beresp.http.Retry-After = "30";
    set beresp.http.Cache-Control = "no-store";
    set beresp.body = {"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Back in a minute</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem">
<h1>Back in a minute</h1>
<p>The website is restarting. Please try again in a minute.</p>
</body></html>
"};
    return (deliver);
}

sub vcl_synth {
    # No instance answered a cacheable GET: look again for any stored copy
    # (stale-if-error), once.
    if (resp.status == 503 && !req.http.X-Stale-If-Error &&
        (req.method == "GET" || req.method == "HEAD") &&
        req.http.X-Cache-State == "MISS") {
        set req.http.X-Stale-If-Error = "1";
        return (restart);
    }
}

sub vcl_deliver {
    # What the proxy did, for people and tests: HIT, MISS, PASS, STALE
    # (refreshing in the background) or STALE-IF-ERROR.
    set resp.http.X-Cache = req.http.X-Cache-State;
    unset resp.http.X-Swr;
}
