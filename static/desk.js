/* The TD's desk with htmx: refusals swapped in place, the queue filtered as you type, results
   typed ahead while earlier ones save, "not saved" said plainly; and the projector cycling its
   panels. Without this file every form still posts and the page comes back where it was.

   A Save answers with only what it changed (the rows, the counts, the round's progress, the
   latest results, the confirmation), swapped out of band: the rows the TD is typing in are not
   touched (see placeArrivals). Every other action redraws the desk's main part.

   Typing ahead: Enter in a row's score saves it and moves the cursor at once to the next open
   row below, so the TD types the next slip while the first one saves. The desk's requests run one
   after another (hx-sync on #desk-main), and each redraw puts back what was typed in rows not yet
   saved; a row that could not take its score any more (decided meanwhile) is named as not saved
   until the TD dismisses the note. */
(function () {
  "use strict";
  var FILTER_KEY = "crawford-desk-filter:" + window.location.pathname;

  /* The page's language: the words this file shows come with the page (static/words.js reads them:
     the desk's in templates/tournaments/_desk_words.html, a score sheet's in
     templates/games/_sheet_words.html); a string not among them is said in English. */
  var T = window.crawfordWords.say;
  var N = window.crawfordWords.count;
  var SCORE_FIELDS = "form.q-score input.ia, form.q-score input.ib";

  function main() { return document.getElementById("desk-main"); }

  function readFilter() {
    try { return JSON.parse(window.sessionStorage.getItem(FILTER_KEY) || "{}"); } catch (e) { return {}; }
  }

  /* A word of digits alone is a table ("5" is table 5, not table 15 nor R1-5); other words match
     names, slots ("r1-5") and "table". */
  function rowMatches(text, table, word) {
    if (/^\d+$/.test(word)) return table === word;
    return text.indexOf(word) >= 0;
  }

  function applyFilter() {
    var root = main();
    if (!root) return;
    var state = {};
    root.querySelectorAll("[data-filter]").forEach(function (el) { state[el.dataset.filter] = el.value; });
    try { window.sessionStorage.setItem(FILTER_KEY, JSON.stringify(state)); } catch (e) { /* private mode */ }
    var words = (state.find || "").toLowerCase().trim().split(/\s+/).filter(Boolean);
    var shown = 0;
    root.querySelectorAll(".q-group").forEach(function (group) {
      var groupOn = (!state.flight || group.dataset.flight === state.flight) &&
                    (!state.round || group.dataset.round === state.round);
      var any = false;
      group.querySelectorAll(".q-row").forEach(function (row) {
        var text = row.dataset.find || "";
        var table = row.dataset.table || "";
        var on = groupOn && words.every(function (w) { return rowMatches(text, table, w); });
        row.hidden = !on;
        if (on) { any = true; shown += 1; }
      });
      group.hidden = !any;
      // A folded round of results opens when the search looks for something in it.
      if (any && words.length && group.tagName === "DETAILS") group.open = true;
    });
    var none = root.querySelector(".queue-none");
    if (none) none.hidden = shown > 0 || !root.querySelector(".q-group");
  }

  function restoreFilter() {
    var root = main();
    if (!root) return;
    var state = readFilter();
    root.querySelectorAll("[data-filter]").forEach(function (el) {
      // A redraw empties the fields (the server does not know them): they come back as they were.
      var value = state[el.dataset.filter];
      if (value !== undefined && el.value !== value) el.value = value;
    });
    applyFilter();
  }

  /* The desk opened again (from a score sheet's *Next match*, after a confirmed correction, or
     reloaded): a filter kept from before that now shows no match to play, while the room has
     some, was typed for a match that is over. It is dropped, so the queue is whole again. */
  function dropSpentFilter() {
    var root = main();
    if (!root) return;
    var fields = root.querySelectorAll("[data-filter]");
    var filtered = Array.prototype.some.call(fields, function (el) { return el.value !== ""; });
    if (!filtered) return;
    var open = root.querySelectorAll(".q-row:not(.is-finished)");
    var shown = Array.prototype.some.call(open, function (row) { return !row.hidden && !row.closest("[hidden]"); });
    if (!open.length || shown) return;
    fields.forEach(function (el) { el.value = ""; });
    applyFilter();
  }

  function focusField(el) {
    if (!el) return;
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: "nearest" });
    if (el.select) { try { el.select(); } catch (e) { /* not selectable */ } }
  }

  function focusAsked() {
    var root = main();
    if (!root || !root.dataset.focus) return;
    var el = document.getElementById(root.dataset.focus);
    if (el && document.activeElement !== el) focusField(el);
  }

  function setStatus(kind, text) {
    var status = document.querySelector(".desk-status");
    if (!status) return;
    var span = document.createElement("span");
    span.className = "msg " + kind;
    span.textContent = text;
    status.replaceChildren(span);
    stickyHeight();
  }

  function unsaved(elt, text) {
    var form = elt && elt.closest ? elt.closest("form") : null;
    var box = form && form.querySelector(".q-unsaved");
    if (box) { box.textContent = text; box.hidden = false; }
    setStatus("error", text);
  }

  /* The status line sticks to the top of the window while the TD works down the queue; the
     queue's filters stick just below it. */
  function stickyHeight() {
    var root = main();
    var status = document.querySelector(".desk-status");
    if (!root || !status) return;
    var stuck = status.textContent.trim() !== "";
    status.classList.toggle("is-said", stuck);
    root.style.setProperty("--desk-status-h", stuck ? status.offsetHeight + "px" : "0px");
  }

  // -- typing ahead ------------------------------------------------------------------------------

  var saving = {};     // form id -> what it sends: {label, a, b}
  var notSaved = [];   // what the TD typed that no longer has a row to go to
  var keyAt = 0;       // when the TD last pressed a key
  var before = null;   // what the desk held just before a redraw
  var findChosen = false;  // the desk put the cursor in the search (its words selected, to replace)

  function scoreForm(el) { return el && el.closest ? el.closest("form.q-score") : null; }

  function describe(form) {
    var a = form.querySelector("input.ia"), b = form.querySelector("input.ib");
    return { label: form.dataset.label || "", a: a ? a.value : "", b: b ? b.value : "",
             nameA: form.dataset.nameA || "", nameB: form.dataset.nameB || "" };
  }

  function said(item) {
    return item.label + ": " + item.nameA + " " + (item.a || "?") + "–" + (item.b || "?") + " " + item.nameB;
  }

  function visible(el) { return !!(el && el.offsetParent !== null); }

  /* The first score field of an open row below `form` (not saving, not hidden by the filter). */
  function nextBelow(form) {
    var forms = Array.prototype.slice.call(document.querySelectorAll("#desk-main form.q-score"));
    var at = forms.indexOf(form);
    for (var i = at + 1; i < forms.length; i++) {
      if (saving[forms[i].id]) continue;
      var a = forms[i].querySelector("input.ia");
      if (visible(a)) return a;
    }
    return null;
  }

  function markSaving() {
    Object.keys(saving).forEach(function (id) {
      var form = document.getElementById(id);
      if (!form) return;
      form.classList.add("is-saving");
      form.setAttribute("aria-busy", "true");
      // Out of the Tab order while it saves: the keys go on to rows that can take them.
      form.querySelectorAll("input.ia, input.ib, .q-save").forEach(function (i) { i.readOnly = true; i.tabIndex = -1; });
      var button = form.querySelector(".q-save");
      if (button) button.textContent = T("Saving…");
    });
  }

  function showNotSaved() {
    var status = document.querySelector(".desk-status");
    if (!status) return;
    notSaved.forEach(function (item, index) {
      var span = document.createElement("span");
      span.className = "msg error not-saved";
      span.setAttribute("role", "alert");
      span.textContent = T("Not saved: %(match)s. %(why)s", { match: said(item), why: item.why }) + " ";
      var dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.className = "link small";
      dismiss.textContent = T("Dismiss");
      dismiss.setAttribute("aria-label", T("Dismiss: not saved %(match)s", { match: item.label }));
      dismiss.addEventListener("click", function () {
        notSaved.splice(index, 1);
        span.remove();
        stickyHeight();
      });
      span.appendChild(dismiss);
      status.appendChild(span);
    });
    stickyHeight();
  }

  /* Saves go one at a time, in the order the TD made them: a Save typed ahead waits for the one
     before it (and is read when it goes, so it carries what the redraw put back). A row decided
     meanwhile is gone from the desk: its Save is not sent, and the desk names it as not saved. */
  var waiting = [];
  var current = null;  // the Save on its way
  function isSave(elt) { return !!(elt && elt.matches && elt.matches("#desk-main form.q-score")); }
  document.addEventListener("htmx:confirm", function (e) {
    if (!isSave(e.target)) return;
    if (!current) { current = e.target; return; }
    e.preventDefault();
    waiting.push({ elt: e.target, go: e.detail.issueRequest });
  });
  /* The Save `elt` is answered: send the next one. (Called from the redraw, because a saved row's
     form has left the page by the time htmx says the request ended.) */
  function saveDone(elt) {
    if (!elt || elt !== current) return;
    current = null;
    while (waiting.length) {
      var item = waiting.shift();
      if (item.elt.isConnected) { current = item.elt; item.go(true); return; }
    }
  }
  document.addEventListener("htmx:afterRequest", function (e) { saveDone(e.target); });

  document.addEventListener("keydown", function () { keyAt = Date.now(); findChosen = false; }, true);

  function reselectFind() {
    var find = document.getElementById("qf-find");
    if (findChosen && find && document.activeElement === find) find.select();
  }

  // Enter (or Save) in a row: the row saves, the cursor goes on to the next open row below.
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.matches || !form.matches("form.q-score") || !form.closest("#desk-main")) return;
    var action = e.submitter && e.submitter.name === "action" ? e.submitter.value : "score";
    if (saving[form.id]) {          // already on its way: a second Enter changes nothing
      e.preventDefault();
      e.stopImmediatePropagation();
      return;
    }
    if (action !== "score") return;
    var item = describe(form);
    item.at = Date.now();
    saving[form.id] = item;
    var here = document.activeElement;
    if (!here || here === document.body || form.contains(here) || (e.submitter && here === e.submitter)) {
      var next = nextBelow(form);
      if (next) focusField(next);
      else { focusField(document.getElementById("qf-find")); findChosen = true; }
    }
    markSaving();
  }, true);

  document.addEventListener("input", function (e) { if (e.target.matches("[data-filter]")) applyFilter(); });
  document.addEventListener("change", function (e) { if (e.target.matches("[data-filter]")) applyFilter(); });

  function isDesk(e) {
    var target = e.detail && e.detail.target;
    return !!(target && target.id === "desk-main");
  }

  function requestForm(e) {
    var elt = e.detail && (e.detail.requestConfig ? e.detail.requestConfig.elt : e.detail.elt);
    return elt && elt.closest ? (elt.tagName === "FORM" ? elt : elt.closest("form")) : null;
  }

  document.addEventListener("htmx:beforeSwap", function (e) {
    var xhr = e.detail.xhr;
    // A refusal comes back as the desk with the reason beside the fields: show it.
    if ((xhr.status === 400 || xhr.status === 409) && xhr.responseText.indexOf('id="desk-main"') >= 0) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    } else if (xhr.status >= 400) {
      var form = requestForm(e);
      if (form) delete saving[form.id];
      unsaved(e.detail.requestConfig && e.detail.requestConfig.elt,
              T("Not saved: the server answered %(status)s. What you typed is kept.", { status: xhr.status }));
      markSaving();
    }
    if (!e.detail.shouldSwap || !isDesk(e)) { before = null; return; }
    // What the desk holds now, to put back after the redraw.
    var status = document.querySelector(".desk-status");
    var verb = e.detail.requestConfig && e.detail.requestConfig.verb;
    var typed = {};
    document.querySelectorAll(SCORE_FIELDS).forEach(function (input) {
      if (input.value !== "" && !input.form.dataset.kept) typed[input.id] = input.value;
    });
    var forms = {};
    document.querySelectorAll("#desk-main form.q-score").forEach(function (form) {
      if (form.dataset.kept) return;  // kept by the offline queue, which shows it on its row
      var item = describe(form);
      if (item.a !== "" || item.b !== "") forms[form.id] = item;
    });
    var active = document.activeElement;
    before = {
      form: requestForm(e), verb: verb, typed: typed, forms: forms,
      active: active && active.id ? active.id : null,
      // A search (a GET) must not wipe what the last action said.
      status: verb === "get" && status && status.textContent.trim() ? status.innerHTML : null,
    };
  });

  /* A queue row's place in its round: its pairing's order (finished rows stay where they were). */
  function rowKey(row) { return parseInt(row.id.slice("pairing-".length), 10); }

  /* A row of the queue takes the place of `old`: what the TD typed in it stays, and so does
     the cursor if it was there. A shorter row (a result where the fields were) keeps the height
     of the one it replaces, so the rows below, where the TD types, do not move. */
  function replaceRow(old, row) {
    var height = old.getBoundingClientRect().height;
    var active = document.activeElement;
    var focused = active && old.contains(active) && active.id ? active.id : null;
    old.querySelectorAll(SCORE_FIELDS).forEach(function (input) {
      var now = row.querySelector("#" + CSS.escape(input.id));
      if (now && input.value !== "") now.value = input.value;
    });
    old.replaceWith(row);
    if (row.getBoundingClientRect().height < height) row.style.minHeight = height + "px";
    if (focused) {
      var again = document.getElementById(focused);
      if (again) again.focus({ preventScroll: true });
    }
  }

  /* A Save's answer brings the rows it changed in #desk-arrivals, in a template (so that htmx
     does not match them with the rows on the page; the other parts it changed are swapped out
     of band by htmx): each row takes the place of the one it replaces, or goes
     into its round in the queue's order. No row of the queue moves, so nothing the TD is typing
     moves under his cursor. A row whose round is not on the desk asks for the whole desk again. */
  function placeArrivals() {
    var box = document.getElementById("desk-arrivals");
    var root = main();
    var rows = box && box.querySelector("template");
    if (!rows || !root) return;
    var redraw = false;
    Array.prototype.slice.call(rows.content.children).forEach(function (template) {
      var row = document.importNode(template, true);
      var old = root.querySelector(".q-list > #" + CSS.escape(row.id));
      if (old) { replaceRow(old, row); if (window.htmx) window.htmx.process(row); return; }
      var group = root.querySelector('.q-group[data-round="' + row.dataset.round + '"]');
      var list = group && group.querySelector(".q-list");
      if (!list) { redraw = true; return; }
      var key = rowKey(row);
      var next = null;
      Array.prototype.some.call(list.children, function (other) {
        if (key < rowKey(other)) { next = other; return true; }
        return false;
      });
      list.insertBefore(row, next);
      if (window.htmx) window.htmx.process(row);
      if (group.tagName === "DETAILS" && !row.classList.contains("is-finished")) group.open = true;
    });
    box.replaceChildren();
    if (redraw && window.htmx) {
      window.setTimeout(function () {
        window.htmx.ajax("GET", window.location.pathname, { target: "#desk-main", swap: "morph:outerHTML" });
      }, 0);
    }
  }

  document.addEventListener("htmx:afterSwap", function (e) {
    if (!isDesk(e) || !before) return;
    var was = before;
    before = null;
    placeArrivals();
    var status = document.querySelector(".desk-status");
    if (was.status !== null && status && !status.textContent.trim()) status.innerHTML = was.status;
    restoreFilter();
    var answered = was.form && was.form.id ? was.form.id : null;
    var sent = answered ? saving[answered] : null;
    if (answered) delete saving[answered];
    // Put back what was typed in every row that has not been answered.
    Object.keys(was.typed).forEach(function (id) {
      var input = document.getElementById(id);
      if (!input || (answered && input.form && input.form.id === answered)) return;
      if (input.matches(SCORE_FIELDS)) input.value = was.typed[id];
    });
    // A row typed in that can no longer take a score is named, never dropped.
    Object.keys(was.forms).forEach(function (id) {
      if (id === answered || document.getElementById(id)) return;
      var item = was.forms[id];
      var pk = id.slice(1);
      var row = document.getElementById("pairing-" + pk);
      item.why = row && row.classList.contains("is-finished")
        ? T("The match was recorded meanwhile: its row shows the result that stands.")
        : T("The match changed meanwhile: enter it again if it still needs a result.");
      delete saving[id];
      notSaved.push(item);
    });
    markSaving();
    showNotSaved();
    // The focus: a Save has already moved it on; a refusal takes it back only if the TD has not
    // typed on since.
    var refusedForm = answered ? document.getElementById(answered) : null;
    var refused = refusedForm && refusedForm.querySelector(".q-err");
    if (sent) {
      if (refused) {
        var err = refusedForm.querySelector(".q-err");
        if (keyAt <= sent.at) focusAsked();
        else setStatus("error", T("Not saved: %(match)s. %(why)s Its row keeps what you typed.", { match: said(sent), why: err.textContent }));
        showNotSaved();
      } else if (was.active && document.activeElement === document.body) {
        focusField(document.getElementById(was.active));
      }
    } else if (!(e.detail.xhr && e.detail.xhr.status >= 400 && focusRefusal(was.form))) {
      focusAsked();
    }
    stickyHeight();
    saveDone(was.form);
  });

  /* A refused form (a flight, the tables, a new player) shows its error where the TD is: the first
     field it names takes the focus, scrolled into view. */
  function focusRefusal(form) {
    var scope = form && form.isConnected ? form : main();
    if (!scope) return false;
    var field = scope.querySelector(".has-error input, .has-error select, .has-error textarea, [aria-invalid=true]");
    if (field) { focusField(field); field.scrollIntoView({ block: "center" }); return true; }
    var list = scope.querySelector(".errorlist, [role=alert]:not([hidden])");
    if (list && list.textContent.trim()) {
      list.setAttribute("tabindex", "-1");
      list.focus({ preventScroll: true });
      list.scrollIntoView({ block: "center" });
      return true;
    }
    return false;
  }

  /* A Save the offline queue kept (static/offline-queue.js) is no longer on its way: its row
     says it waits to send, and the next Save typed ahead goes on. */
  function release(form) {
    delete saving[form.id];
    form.querySelectorAll("input.ia, input.ib, .q-save").forEach(function (i) { i.removeAttribute("tabindex"); });
    form.classList.remove("is-saving");
    form.removeAttribute("aria-busy");
    markSaving();
    saveDone(form);
  }

  /* A Save kept by the queue when the network is down moves the cursor on as a Save does. */
  function moveOn(form) {
    var here = document.activeElement;
    if (!here || here === document.body || form.contains(here)) {
      var next = nextBelow(form);
      if (next) focusField(next);
      else { focusField(document.getElementById("qf-find")); findChosen = true; }
    }
  }
  window.CrawfordDesk = { release: release, moveOn: moveOn };

  document.addEventListener("htmx:sendError", function (e) {
    var form = scoreForm(e.detail.elt);
    if (form && form.dataset.kept) return;  // the offline queue has it
    if (form) { delete saving[form.id]; markSaving(); }
    unsaved(e.detail.elt, T("Not saved: no connection to the server. What you typed is kept: try again."));
    if (form) {
      form.querySelectorAll("input.ia, input.ib, .q-save").forEach(function (i) { i.readOnly = false; i.removeAttribute("tabindex"); });
      form.classList.remove("is-saving");
      form.removeAttribute("aria-busy");
      var button = form.querySelector(".q-save");
      if (button) button.textContent = T("Save");
    }
  });
  // htmx settles attributes after the swap: the filter's `hidden` and the saving rows' marks are
  // laid again. (A panel loaded into a row keeps the focus where the TD put it.)
  document.addEventListener("htmx:afterSettle", function (e) {
    if (isDesk(e)) { restoreFilter(); markSaving(); reselectFind(); }
    stickyHeight();
  });

  // "/" finds a player or table from anywhere but a field where "/" is something to type.
  document.addEventListener("keydown", function (e) {
    if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target;
    var typing = t.matches("textarea, [contenteditable], input:not([type]), input[type=text], input[type=search], " +
                           "input[type=email], input[type=url], input[type=password], input[type=tel]");
    if (typing) return;
    var find = document.getElementById("qf-find");
    if (find) { e.preventDefault(); focusField(find); }
  });

  function setupProjector() {
    if (!document.body.classList.contains("projector")) return;
    var index = 0;
    function show() {
      var panels = document.querySelectorAll(".pj-panel");
      if (panels.length < 2) { document.body.classList.remove("cycling"); return; }
      document.body.classList.add("cycling");
      index = index % panels.length;
      panels.forEach(function (p, i) { p.classList.toggle("shown", i === index); });
    }
    show();
    window.setInterval(function () { index += 1; show(); }, 15000);
    document.addEventListener("htmx:afterSettle", show);
  }

  /* The score sheet: prevent what the rules would refuse, show what a game is worth. */
  function setupSheet(form) {
    var number = form.dataset.number;
    var cube = form.querySelector("[name=cube]");
    var owners = form.querySelectorAll("[name=cube_owner]");
    var kindField = form.querySelector("[name=kind]") && form.querySelector("[name=kind]").closest(".field");
    var worth = form.querySelector("#game-worth");
    if (form.hasAttribute("data-crawford") && cube) {
      var why = document.createElement("p");
      why.className = "help";
      why.id = "cube-why";
      why.textContent = T("Game %(number)s is the Crawford game: no doubling, so the cube stays at 1.", { number: number });
      cube.value = "1";
      cube.disabled = true;
      cube.setAttribute("aria-describedby", "cube-why");
      var keep = document.createElement("input");
      keep.type = "hidden"; keep.name = "cube"; keep.value = "1";
      cube.parentNode.appendChild(keep);
      cube.parentNode.appendChild(why);
      owners.forEach(function (o) { o.checked = o.value === ""; o.disabled = true; });
    }
    function value(name) {
      var el = form.querySelector("[name=" + name + "]:checked") || form.querySelector("select[name=" + name + "]");
      return el ? el.value : "";
    }
    function update() {
      var end = value("end");
      if (kindField) {
        // A refused double ends the game as a single: "Won as" is not asked (unless it was refused).
        var refusedDouble = end === "double_refused";
        if (refusedDouble) {
          var single = kindField.querySelector("input[value='1']");
          if (single) single.checked = true;
        }
        kindField.hidden = refusedDouble && !kindField.classList.contains("has-error");
      }
      var c = parseInt(cube ? cube.value : "1", 10) || 1;
      var points = end === "double_refused" ? c : c * (parseInt(value("kind"), 10) || 1);
      if (worth) worth.textContent = N("Game %(number)s is worth %(points)s point.", "Game %(number)s is worth %(points)s points.", points, { number: number, points: points });
    }
    form.addEventListener("change", update);
    update();
    var invalid = form.querySelector(".has-error input, .has-error select");
    var first = invalid || form.querySelector("input:not([type=hidden]):not([disabled])");
    if (first) first.focus();
  }

  document.addEventListener("submit", function (e) {
    var message = e.target.dataset && e.target.dataset.confirm;
    if (message && !window.confirm(message)) e.preventDefault();
  });

  function focusNext() {
    if (window.location.hash !== "#next") return;
    var first = document.querySelector(".q-group .q-score input.ia");
    if (first) first.focus();
  }

  /* Once htmx and its morph have loaded (deferred scripts run before DOMContentLoaded, this one
     maybe before them). */
  function configure() {
    // A boosted form would scroll the desk back to its top after every action.
    if (window.htmx) window.htmx.config.scrollIntoViewOnBoost = false;
  }
  document.addEventListener("DOMContentLoaded", configure);
  configure();

  function ready() {
    restoreFilter(); dropSpentFilter(); focusAsked(); setupProjector(); focusNext(); stickyHeight();
    document.querySelectorAll("form[data-sheet]").forEach(setupSheet);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
