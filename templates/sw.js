/* Crawford's service worker (served at /sw.js by tournaments.views.offline, so that its scope is
   the whole site). It keeps the desk's and the match pages' shell so that they open without a
   network: pages are asked of the network first and the copy kept is shown when there is none;
   the static files with a hashed name never change and come from the copy kept. It never touches
   a POST: the Saves made offline are kept by the page (static/offline-queue.js), not here. */
"use strict";
var CONFIG = {{ config|safe }};
var NETWORK_WAIT = 6000;  // a page the network does not answer within this long comes from the copy

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CONFIG.cache).then(function (cache) {
    return cache.addAll(CONFIG.shell);
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("crawford-") === 0 && name !== CONFIG.cache;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

/* A page worth keeping: the desk's and the events' pages (the match page a slip's QR code opens),
   whole pages only (an htmx fragment is not a page). */
function kept(url, request) {
  if (request.headers.get("HX-Request")) return false;
  return CONFIG.kept.some(function (prefix) { return url.pathname.indexOf(prefix) === 0; });
}

function hashed(url) {
  return url.pathname.indexOf(CONFIG.static) === 0 && /\.[0-9a-f]{12}\.[a-z0-9]+$/.test(url.pathname);
}

function offlinePage() {
  var escape = function (s) { return s.replace(/&/g, "&amp;").replace(/</g, "&lt;"); };
  var html = "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>" +
    "<title>" + escape(CONFIG.offline_title) + "</title><h1>" + escape(CONFIG.offline_title) + "</h1><p>" +
    escape(CONFIG.offline_text) + "</p>";
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

/* The network's answer, kept when it is a good one; the copy kept when the network fails or
   takes longer than NETWORK_WAIT. */
function networkFirst(request, keep) {
  var fromNetwork = fetch(request).then(function (response) {
    if (keep && response.ok && !response.redirected && response.type === "basic") {
      var copy = response.clone();
      caches.open(CONFIG.cache).then(function (cache) { cache.put(request.url.split("#")[0], copy); });
    }
    return response;
  });
  var late = new Promise(function (resolve) { setTimeout(resolve, NETWORK_WAIT); }).then(function () {
    return caches.match(request.url.split("#")[0]).then(function (copy) { return copy || fromNetwork; });
  });
  return Promise.race([fromNetwork, late]).catch(function () {
    return caches.match(request.url.split("#")[0]).then(function (copy) {
      if (copy) return copy;
      return request.mode === "navigate" ? offlinePage() : Response.error();
    });
  });
}

/* Keep a page as it stands now, fetched with the visitor's cookies; true once it is kept. */
function keep(href) {
  var url = new URL(href, self.location.origin);
  if (url.origin !== self.location.origin) return Promise.resolve(false);
  var request = new Request(url.href, { credentials: "same-origin" });
  if (!kept(url, request)) return Promise.resolve(false);
  return fetch(request).then(function (response) {
    if (!response.ok || response.redirected) return false;
    return caches.open(CONFIG.cache).then(function (cache) { return cache.put(url.href, response); })
      .then(function () { return true; });
  }).catch(function () { return false; /* offline: the copy kept stays */ });
}

/* A page asks to be kept as it stands now (the desk after its Saves, a page opened before this
   worker ran); the answer, on the port the page sent, says whether it was. */
self.addEventListener("message", function (event) {
  var wanted = event.data && event.data.keep;
  if (typeof wanted !== "string") return;
  var answer = event.ports && event.ports[0];
  event.waitUntil(keep(wanted).then(function (done) {
    if (answer) answer.postMessage({ kept: done });
  }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (hashed(url)) {
    event.respondWith(caches.match(request).then(function (copy) {
      return copy || fetch(request).then(function (response) {
        if (response.ok) {
          var kept = response.clone();
          caches.open(CONFIG.cache).then(function (cache) { cache.put(request, kept); });
        }
        return response;
      });
    }));
    return;
  }
  var shell = CONFIG.shell.indexOf(url.pathname) >= 0;
  if (shell || kept(url, request)) event.respondWith(networkFirst(request, true));
});
