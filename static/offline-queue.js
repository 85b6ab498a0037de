/* Results are never lost to the venue's network. A Save at the desk made while offline, or whose
   request fails or takes longer than 8 s, is kept in this browser (IndexedDB) with the key made
   when it was typed, shown on its row as waiting to send (and counted at the top of the desk),
   and sent by itself, in the order typed, when the network returns: no click. The server stores
   a result once per key (tournaments.services.idempotency), so a Save sent twice counts once; a
   result that meets another one comes back as a conflict on its row, with both scores and the
   TD's choice. A player's report on the match page goes the same way and says "sent" only when
   the server has answered.

   Also registers the service worker (/sw.js), which keeps the pages so that they open offline. */
(function () {
  "use strict";
  /* The page's language: the words this file shows come with the page (static/words.js reads them
     from templates/tournaments/_offline_words.html); a string not among them is said in English. */
  var T = window.crawfordWords.say;
  var N = window.crawfordWords.count;
  var TIMEOUT = 8000;   // a Save not answered within this long is kept and sent again later
  var RETRY = 4000;     // how often the kept Saves are tried while some wait

  // -- keeping: IndexedDB ------------------------------------------------------------------------

  var opened = null;
  function db() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        var request = window.indexedDB.open("crawford-offline", 1);
        request.onupgradeneeded = function () { request.result.createObjectStore("saves", { keyPath: "key" }); };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
      });
    }
    return opened;
  }
  function store(mode, work) {
    return db().then(function (base) {
      return new Promise(function (resolve, reject) {
        var tx = base.transaction("saves", mode);
        var result = work(tx.objectStore("saves"));
        tx.oncomplete = function () { resolve(result && "result" in result ? result.result : undefined); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
      });
    });
  }
  function readAll() {
    return store("readonly", function (saves) { return saves.getAll(); }).then(function (items) {
      return (items || []).sort(function (a, b) { return a.seq - b.seq; });
    });
  }

  var items = {};        // key -> item, the copy in memory of what IndexedDB keeps
  var loaded = readAll().then(function (all) { all.forEach(function (item) { items[item.key] = item; }); });
  var lastSeq = 0;
  function nextSeq() { lastSeq = Math.max(lastSeq + 1, Date.now() * 1000); return lastSeq; }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    // A page opened over plain HTTP on the venue's network has no randomUUID: 128 random bits.
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  var listeners = [];
  function emit(what, item, answer) { listeners.forEach(function (fn) { fn(what, item, answer); }); }

  function add(item) {
    item.seq = item.seq || nextSeq();
    item.state = "waiting";
    items[item.key] = item;
    emit("changed");
    return store("readwrite", function (saves) { saves.put(item); });
  }
  function update(item) {
    items[item.key] = item;
    emit("changed");
    return store("readwrite", function (saves) { saves.put(item); });
  }
  function remove(key) {
    delete items[key];
    emit("changed");
    return store("readwrite", function (saves) { saves.delete(key); });
  }
  function list(url) {
    return Object.keys(items).map(function (k) { return items[k]; })
      .filter(function (item) { return !url || item.url === url; })
      .sort(function (a, b) { return a.seq - b.seq; });
  }
  function waitingFor(url) { return list(url).filter(function (i) { return i.state === "waiting"; }); }

  // -- sending -----------------------------------------------------------------------------------

  var sending = false, again = false;
  var trouble = "";      // why the last try stopped: "" (network), "login" or "server"

  function token() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  /* One kept Save: "sent", "done" (answered with a refusal or a conflict, kept to show), or
     "stop" (no answer: the network, the server, a login to renew; tried again later). */
  function send(item) {
    var body = new URLSearchParams();
    item.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    body.set("csrfmiddlewaretoken", token() || item.csrf || "");
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller ? window.setTimeout(function () { controller.abort(); }, TIMEOUT) : null;
    return fetch(item.url, {
      method: "POST", body: body, credentials: "same-origin", signal: controller ? controller.signal : undefined,
      headers: { "Accept": "application/json", "Idempotency-Key": item.key, "X-CSRFToken": token() || item.csrf || "" },
    }).then(function (response) {
      window.clearTimeout(timer);
      var type = response.headers.get("Content-Type") || "";
      if (response.redirected || type.indexOf("application/json") < 0) {
        trouble = response.redirected || response.status === 403 ? "login" : "server";
        return "stop";
      }
      return response.json().then(function (answer) {
        if (response.ok) {
          trouble = "";
          return remove(item.key).then(function () { emit("sent", item, answer); return "sent"; });
        }
        if (response.status >= 500) { trouble = "server"; return "stop"; }
        item.state = answer.error === "result_conflict" ? "conflict" : "refused";
        item.answer = answer;
        return update(item).then(function () { emit(item.state, item, answer); return "done"; });
      });
    }, function () {
      window.clearTimeout(timer);
      trouble = "";
      return "stop";
    });
  }

  function flush() {
    if (sending) { again = true; return Promise.resolve(); }
    if (navigator.onLine === false) return Promise.resolve();
    sending = true;
    var sent = 0;
    return loaded.then(function () {
      var queue = waitingFor(null);
      function next(i) {
        if (i >= queue.length) return null;
        if (!items[queue[i].key] || items[queue[i].key].state !== "waiting") return next(i + 1);
        return send(queue[i]).then(function (outcome) {
          if (outcome === "stop") return null;
          sent += 1;  // sent, or answered with a refusal or a conflict: the page shows the server's state
          return next(i + 1);
        });
      }
      return next(0);
    }).catch(function () { /* a failure to read or write the store: tried again later */ }).then(function () {
      sending = false;
      emit("changed");
      if (sent) emit("drained");
      if (again) { again = false; flush(); }
    });
  }

  window.addEventListener("online", function () { emit("changed"); flush(); });
  window.addEventListener("offline", function () { emit("changed"); });
  window.setInterval(function () { if (waitingFor(null).length) flush(); }, RETRY);
  loaded.then(function () { emit("changed"); flush(); });

  window.CrawfordQueue = {
    add: add, remove: remove, update: update, list: list, flush: flush, newKey: newKey,
    on: function (fn) { listeners.push(fn); }, loaded: loaded,
    trouble: function () { return trouble; },
  };

  // -- the service worker ------------------------------------------------------------------------

  var worker = document.querySelector("meta[name=crawford-service-worker]");
  var registered = null;
  // Read now, before the worker may claim the page: a page the worker served was kept by it as it
  // came; one opened before the worker ran (the first visit) was not, and asks for it below.
  var servedByWorker = !!(worker && "serviceWorker" in navigator && navigator.serviceWorker.controller);
  if (worker && "serviceWorker" in navigator) {
    registered = navigator.serviceWorker.register(worker.content, { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).catch(function () { return null; /* no HTTPS (a phone on the venue's network): pages not kept */ });
    registered.then(function (registration) {
      if (!registration) return;
      // A copy the worker is still writing as it served the page: looked for again before asking.
      keptCopy(servedByWorker ? 2000 : 0).then(function (copy) {
        if (copy) openableOffline();
        else keepPage(0);
      });
    });
  }
  var pageUrl = window.location.pathname + window.location.search;
  /* The copy of this page the worker keeps, if it has one (after `wait` ms). */
  function keptCopy(wait) {
    if (!window.caches) return Promise.resolve(null);
    return new Promise(function (resolve) { window.setTimeout(resolve, wait); }).then(function () {
      return window.caches.match(window.location.href.split("#")[0], { ignoreVary: true });
    }).catch(function () { return null; });
  }
  /* This page opens without the network from now on: the page says so (html[data-offline-ready]). */
  function openableOffline() {
    document.documentElement.dataset.offlineReady = "yes";
  }
  var keepTimer = null;
  /* Have the worker keep this page as it stands after `wait` ms of calm (a reload offline then
     shows the results saved since the page was opened); the worker answers once it is kept. */
  function keepPage(wait) {
    if (!registered) return;
    window.clearTimeout(keepTimer);
    keepTimer = window.setTimeout(function () {
      registered.then(function (registration) {
        if (!registration || !registration.active) return;
        var channel = new MessageChannel();
        channel.port1.onmessage = function (event) {
          if (event.data && event.data.kept) openableOffline();
        };
        registration.active.postMessage({ keep: pageUrl }, [channel.port2]);
      });
    }, wait);
  }

  // -- the desk ----------------------------------------------------------------------------------

  function setupDesk() {
    var main = document.getElementById("desk-main");
    if (!main) return;
    var here = window.location.pathname;
    var took = {};       // form id -> true: a Save the queue took over from htmx

    function isSave(form, submitter) {
      if (!form || !form.matches || !form.matches("#desk-main form.q-score")) return false;
      var action = submitter && submitter.name === "action" ? submitter.value : "score";
      return action === "score";
    }

    function keyField(form) {
      var field = form.querySelector("input[name=idempotency_key]");
      if (!field) {
        field = document.createElement("input");
        field.type = "hidden";
        field.name = "idempotency_key";
        form.appendChild(field);
      }
      return field;
    }

    function keep(form) {
      form.dataset.kept = "1";
      var data = new FormData(form);
      var fields = [];
      data.forEach(function (value, name) { if (name !== "csrfmiddlewaretoken") fields.push([name, value]); });
      var a = form.querySelector("input.ia"), b = form.querySelector("input.ib");
      return add({
        key: keyField(form).value || newKey(), kind: "desk", url: here, pairing: form.querySelector("[name=pairing]").value,
        fields: fields, csrf: token(), label: form.dataset.label || "", nameA: form.dataset.nameA || "",
        nameB: form.dataset.nameB || "", a: a ? a.value : "", b: b ? b.value : "",
      });
    }

    function offline() { return navigator.onLine === false; }

    // A Save: a key made now, as it is typed; kept at once when offline or behind Saves still kept.
    document.addEventListener("submit", function (e) {
      var form = e.target;
      if (!isSave(form, e.submitter)) return;
      if (form.classList.contains("is-queued")) { e.preventDefault(); e.stopImmediatePropagation(); return; }
      keyField(form).value = newKey();
      if (!offline() && !waitingFor(here).length) return;   // htmx sends it (desk.js)
      e.preventDefault();
      e.stopImmediatePropagation();
      keep(form);
      if (window.CrawfordDesk) window.CrawfordDesk.moveOn(form);
      paint();
      flush();
    }, true);

    /* A Save typed ahead that desk.js holds until the one before it is answered: when its turn
       comes while Saves are kept, it is kept too, behind them (the order typed stays). */
    document.addEventListener("htmx:beforeRequest", function (e) {
      var form = e.detail.elt;
      if (!isSave(form, null) || !form.querySelector("input[name=idempotency_key]")) return;
      var verb = e.detail.requestConfig && e.detail.requestConfig.verb;
      if (verb && verb !== "post") return;
      if (!offline() && !waitingFor(here).length) return;
      e.preventDefault();
      took[form.id] = true;
      form.dataset.kept = "1";
      keep(form);
      if (window.CrawfordDesk) window.CrawfordDesk.release(form);
      paint();
    });

    // No answer (the network dropped, or 8 s went by): kept with its key, sent again later.
    function failed(e) {
      var form = e.detail.elt;
      if (!isSave(form, null) || took[form.id]) return;
      took[form.id] = true;
      form.dataset.kept = "1";
      keep(form);
      if (window.CrawfordDesk) window.CrawfordDesk.release(form);
      paint();
    }
    document.addEventListener("htmx:sendError", failed);
    document.addEventListener("htmx:timeout", failed);
    if (window.htmx) window.htmx.config.timeout = TIMEOUT;
    document.addEventListener("DOMContentLoaded", function () { if (window.htmx) window.htmx.config.timeout = TIMEOUT; });

    document.addEventListener("htmx:afterRequest", function (e) {
      var form = e.detail.elt;
      if (!isSave(form, null)) return;
      if (e.detail.successful) keepPage(3000);
      // Kept before desk.js sends the next Save typed ahead, so that it is kept behind this one.
      else if (e.detail.xhr && e.detail.xhr.status === 0) failed(e);
    });
    document.addEventListener("htmx:afterSettle", function () { took = {}; paint(); });

    /* What needs the server is refused offline, with the reason. */
    var NEEDS = {
      start_round: "Drawing a round needs the server: it waits until the network is back.",
      start_flight: "Drawing a round needs the server: it waits until the network is back.",
      draw: "Drawing a round needs the server: it waits until the network is back.",
      check_in: "Check-in needs the server: it waits until the network is back.",
      check_in_all: "Check-in needs the server: it waits until the network is back.",
      correct: "A correction needs the server: it may change matches drawn from this one. It waits until the network is back.",
      rule: "A correction needs the server: it may change matches drawn from this one. It waits until the network is back.",
      undo: "A correction needs the server: it may change matches drawn from this one. It waits until the network is back.",
    };
    function refuse(kind) {
      say(T(NEEDS[kind] || "This needs the server: it waits until the network is back.") + " " +
          T("Results you type are kept and sent by themselves."), true);
    }
    document.addEventListener("submit", function (e) {
      var form = e.target;
      if (!offline() || !form.closest || !form.closest(".desk") || isSave(form, e.submitter)) return;
      var action = e.submitter && e.submitter.name === "action" ? e.submitter.value
        : (form.querySelector("[name=action]") || {}).value || (/\/draw\/$/.test(form.getAttribute("action") || "") ? "draw" : "");
      e.preventDefault();
      e.stopImmediatePropagation();
      refuse(action);
    }, true);
    document.addEventListener("click", function (e) {
      var link = e.target.closest && e.target.closest(".desk a[href]");
      if (!link || !offline()) return;
      var href = link.getAttribute("href") || "";
      if (/\/pairings\/\d+\/$/.test(href)) { e.preventDefault(); refuse("correct"); }
      else if (/\/draw\/$/.test(href)) { e.preventDefault(); refuse("draw"); }
    }, true);

    // -- what the TD sees ----------------------------------------------------------------------

    var state = document.getElementById("offline-state");
    var saidText = "", saidAlert = false;
    function say(text, alert) {
      saidText = text;
      saidAlert = !!alert;
      paintState();
    }

    function paintState() {
      if (!state) return;
      var waiting = waitingFor(here).length;
      var conflicts = list(here).filter(function (i) { return i.state === "conflict"; }).length;
      var parts = [];
      if (offline()) parts.push(T("Offline: results you type are kept on this computer and sent when the network returns."));
      if (waiting) {
        parts.push(N("%(n)s result waiting to send.", "%(n)s results waiting to send.", waiting, { n: waiting }));
        if (trouble === "login") parts.push(T("Log in again (in another tab) to send them: they stay kept here."));
        else if (!offline()) parts.push(T("They go by themselves as soon as the server answers."));
      }
      if (conflicts) parts.push(N("%(n)s result to decide: see its row.", "%(n)s results to decide: see their rows.", conflicts, { n: conflicts }));
      if (saidText) parts.push(saidText);
      state.hidden = !parts.length;
      state.classList.toggle("is-offline", offline() || !!waiting);
      state.classList.toggle("is-alert", saidAlert || !!conflicts);
      var count = document.getElementById("offline-count");
      var text = parts.join(" ");
      var line = state.querySelector(".offline-text");
      if (line && line.textContent !== text) line.textContent = text;
      if (count) count.textContent = String(waiting);
    }

    function scoreWords(item, a, b) {
      return item.nameA + " " + a + "–" + b + " " + item.nameB;
    }

    function button(text, onClick, css) {
      var el = document.createElement("button");
      el.type = "button";
      el.className = css || "small";
      el.textContent = text;
      el.addEventListener("click", onClick);
      return el;
    }

    function correctUrl(item, a, b) {
      return here + "pairings/" + item.pairing + "/?score_a=" + encodeURIComponent(a) + "&score_b=" + encodeURIComponent(b);
    }

    function paintRow(row, item) {
      var form = row.querySelector("form.q-score");
      var note = row.querySelector(".q-kept");
      if (!note) {
        note = document.createElement("div");
        note.className = "q-kept";
        row.appendChild(note);
      }
      row.classList.toggle("is-queued", item.state === "waiting");
      row.classList.toggle("is-conflict", item.state !== "waiting");
      if (form) {
        form.classList.toggle("is-queued", item.state === "waiting");
        var a = form.querySelector("input.ia"), b = form.querySelector("input.ib");
        if (a && a.value === "") a.value = item.a;
        if (b && b.value === "") b.value = item.b;
        form.querySelectorAll("input.ia, input.ib").forEach(function (input) { input.readOnly = item.state === "waiting"; });
        var save = form.querySelector(".q-save");
        if (save) save.textContent = item.state === "waiting" ? T("Waiting") : T("Save");
      }
      var signature = item.state + "|" + item.a + "|" + item.b;
      if (note.dataset.signature === signature) return;
      note.dataset.signature = signature;
      note.replaceChildren();
      var text = document.createElement("p");
      note.appendChild(text);
      if (item.state === "waiting") {
        note.setAttribute("role", "status");
        text.textContent = T("Waiting to send: %(score)s. Kept on this computer; it goes by itself.",
                             { score: scoreWords(item, item.a, item.b) });
        return;
      }
      note.setAttribute("role", "alert");
      var answer = item.answer || {};
      if (item.state === "conflict") {
        var stored = answer.stored || {};
        var server = stored.score_a === null || stored.score_a === undefined ? T("a walkover")
          : scoreWords(item, stored.score_a, stored.score_b);
        text.textContent = T(answer.state === "reported"
          ? "Not saved: this match already has another result. Reported by a player: %(server)s. You typed: %(mine)s."
          : "Not saved: this match already has another result. On the server: %(server)s. You typed: %(mine)s.",
                             { server: server, mine: scoreWords(item, item.a, item.b) });
        var choices = document.createElement("p");
        choices.className = "q-choices";
        choices.appendChild(button(T("Keep the server's result"), function () {
          remove(item.key).then(function () {
            if (window.htmx) window.htmx.ajax("GET", here, { target: "#desk-main", swap: "morph:outerHTML" });
          });
        }, "small secondary"));
        choices.appendChild(button(T("Send mine as a correction"), function () {
          var go = correctUrl(item, item.a, item.b);
          remove(item.key).then(function () { window.location.href = go; });
        }, "small"));
        note.appendChild(choices);
        return;
      }
      text.textContent = T("Not saved: %(score)s. %(why)s", { score: scoreWords(item, item.a, item.b),
                                                                why: answer.message || "" });
      var again = document.createElement("p");
      again.appendChild(button(T("Dismiss"), function () { remove(item.key); }, "small secondary"));
      note.appendChild(again);
    }

    function paint() {
      var mine = {};
      list(here).forEach(function (item) { mine[item.pairing] = item; });
      document.querySelectorAll("#desk-main .q-row").forEach(function (row) {
        var pk = row.id.slice("pairing-".length);
        var item = mine[pk];
        if (item) { paintRow(row, item); return; }
        if (!row.classList.contains("is-queued") && !row.classList.contains("is-conflict")) return;
        row.classList.remove("is-queued", "is-conflict");
        var note = row.querySelector(".q-kept");
        if (note) note.remove();
        var form = row.querySelector("form.q-score");
        if (form) {
          form.classList.remove("is-queued");
          form.querySelectorAll("input.ia, input.ib").forEach(function (input) { input.readOnly = false; });
          var save = form.querySelector(".q-save");
          if (save) save.textContent = T("Save");
        }
      });
      paintState();
    }

    listeners.push(function (what, item) {
      if (what === "changed") { paint(); return; }
      if (what === "sent" && item.url === here) { saidText = ""; saidAlert = false; }
      if (what === "drained" && window.htmx) {
        // What was kept is on the server now: the desk shows it as it stands.
        window.htmx.ajax("GET", here, { target: "#desk-main", swap: "morph:outerHTML" });
        keepPage(1000);
      }
      paint();
    });
    window.addEventListener("online", function () { say("", false); });
    paint();
  }

  // -- a player's report on the match page -------------------------------------------------------

  function setupReport() {
    var form = document.querySelector("form[data-report]");
    if (!form) return;
    var here = window.location.pathname;
    var note = document.createElement("p");
    note.className = "offline-note";
    note.setAttribute("role", "status");
    note.setAttribute("aria-live", "polite");
    note.hidden = true;
    form.parentNode.insertBefore(note, form);

    function words(item) { return form.dataset.nameA + " " + item.a + "–" + item.b + " " + form.dataset.nameB; }
    function show(text, kind) {
      note.textContent = text;
      note.className = "offline-note " + (kind || "");
      note.hidden = !text;
    }
    function showWaiting() {
      var waiting = waitingFor(here);
      if (!waiting.length) return;
      var item = waiting[waiting.length - 1];
      show(T(navigator.onLine === false
        ? "Not sent yet: %(score)s. No network: your report is kept on this phone and goes by itself when the network is back. Keep this page open."
        : "Sending %(score)s…", { score: words(item) }), "waiting");
    }

    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var fields = [];
      new FormData(form).forEach(function (value, name) { if (name !== "csrfmiddlewaretoken") fields.push([name, value]); });
      var a = form.querySelector("[name='report-score_a']"), b = form.querySelector("[name='report-score_b']");
      add({ key: newKey(), kind: "report", url: here, pairing: form.dataset.report, fields: fields, csrf: token(),
            a: a ? a.value : "", b: b ? b.value : "" }).then(function () { showWaiting(); flush(); });
      showWaiting();
    });

    listeners.push(function (what, item, answer) {
      if (what === "changed") { showWaiting(); return; }
      if (!item || item.url !== here) return;
      if (what === "sent") {
        show(T(answer.report_status === "pending"
          ? "Sent: %(score)s reported. It counts when your opponent confirms it."
          : "Sent: %(score)s.", { score: words(item) }), "sent");
        window.setTimeout(function () { window.location.reload(); }, 1500);
      } else if (what === "conflict" || what === "refused") {
        show(T("Not sent: %(why)s", { why: (answer && answer.message) || "" }), "error");
        remove(item.key);
      }
    });
    showWaiting();
  }

  function ready() { setupDesk(); setupReport(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
