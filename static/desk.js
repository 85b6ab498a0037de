/* The TD's desk with htmx: refusals swapped in place, focus kept, the queue filtered as you type,
   "not saved" when the connection is lost; and the projector cycling its panels.
   Without this file every form still posts and the page comes back where it was. */
(function () {
  "use strict";
  var FILTER_KEY = "crawford-desk-filter:" + window.location.pathname;

  function main() { return document.getElementById("desk-main"); }

  function readFilter() {
    try { return JSON.parse(window.sessionStorage.getItem(FILTER_KEY) || "{}"); } catch (e) { return {}; }
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
        var on = groupOn && words.every(function (w) {
          if (/^\d+$/.test(w)) return text.indexOf("t" + w + " ") >= 0 || text.slice(-w.length - 1) === "t" + w ||
                                      text.indexOf(w) >= 0;
          return text.indexOf(w) >= 0;
        });
        row.hidden = !on;
        if (on) { any = true; shown += 1; }
      });
      group.hidden = !any;
    });
    var none = root.querySelector(".queue-none");
    if (none) none.hidden = shown > 0 || !root.querySelector(".q-group");
  }

  function restoreFilter() {
    var root = main();
    if (!root) return;
    var state = readFilter();
    root.querySelectorAll("[data-filter]").forEach(function (el) {
      if (state[el.dataset.filter] !== undefined && document.activeElement !== el) el.value = state[el.dataset.filter];
    });
    applyFilter();
  }

  function focusAsked() {
    var root = main();
    if (!root || !root.dataset.focus) return;
    var el = document.getElementById(root.dataset.focus);
    if (el && document.activeElement !== el) {
      el.focus({ preventScroll: false });
      if (el.select) el.select();
    }
  }

  function unsaved(elt, text) {
    var form = elt && elt.closest ? elt.closest("form") : null;
    var box = form && form.querySelector(".q-unsaved");
    if (box) { box.textContent = text; box.hidden = false; }
    var status = document.querySelector(".desk-status");
    if (status) status.innerHTML = '<span class="msg error"></span>';
    if (status) status.firstChild.textContent = text;
  }

  document.addEventListener("input", function (e) { if (e.target.matches("[data-filter]")) applyFilter(); });
  document.addEventListener("change", function (e) { if (e.target.matches("[data-filter]")) applyFilter(); });

  document.addEventListener("htmx:beforeSwap", function (e) {
    var xhr = e.detail.xhr;
    // A refusal comes back as the desk with the reason beside the fields: show it.
    if ((xhr.status === 400 || xhr.status === 409) && xhr.responseText.indexOf('id="desk-main"') >= 0) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    } else if (xhr.status >= 400) {
      unsaved(e.detail.requestConfig && e.detail.requestConfig.elt,
              "Not saved: the server answered " + xhr.status + ". What you typed is kept.");
    }
  });
  // A search redraws the desk (a GET) but must not wipe what the last action said: keep the
  // status line when the new one is empty.
  var keptStatus = null;
  document.addEventListener("htmx:beforeSwap", function (e) {
    var verb = e.detail.requestConfig && e.detail.requestConfig.verb;
    var status = document.querySelector(".desk-status");
    keptStatus = verb === "get" && status && status.textContent.trim() ? status.innerHTML : null;
  });
  document.addEventListener("htmx:afterSwap", function () {
    var status = document.querySelector(".desk-status");
    if (keptStatus !== null && status && !status.textContent.trim()) status.innerHTML = keptStatus;
    keptStatus = null;
  });
  document.addEventListener("htmx:sendError", function (e) {
    unsaved(e.detail.elt, "Not saved: no connection to the server. What you typed is kept: try again.");
  });
  // Only a redrawn desk moves the focus to what the server asked for: a panel loaded into a row
  // (walkover, table) must not send the cursor back to the score field the last action named.
  document.addEventListener("htmx:afterSettle", function (e) {
    restoreFilter();
    var target = e.detail && e.detail.target;
    if (target && target.id === "desk-main") focusAsked();
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "/" && !e.target.matches("input, select, textarea")) {
      var find = document.getElementById("qf-find");
      if (find) { e.preventDefault(); find.focus(); }
    }
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
      why.textContent = "Game " + number + " is the Crawford game: no doubling, so the cube stays at 1.";
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
      if (kindField) kindField.hidden = end === "double_refused";
      var c = parseInt(cube ? cube.value : "1", 10) || 1;
      var points = end === "double_refused" ? c : c * (parseInt(value("kind"), 10) || 1);
      if (worth) worth.textContent = "Game " + number + " is worth " + points + " point" + (points === 1 ? "" : "s") + ".";
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

  function ready() {
    restoreFilter(); focusAsked(); setupProjector(); focusNext();
    document.querySelectorAll("form[data-sheet]").forEach(setupSheet);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
