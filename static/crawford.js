/* Crawford's few lines of script. Every page works without them; they add:
   - the replay stepper (buttons, arrow keys, Home/End) over the list of positions;
   - refreshing a fragment of a page ([data-poll]; the event page uses htmx with morphing);
   - keeping what the reader opened, chose and typed across those updates;
   - the bracket's round tabs on a phone, a player's path lit on hover and focus;
   - "find my match" on the event page;
   - the site's menu on a phone, scrolled so that the link taking the focus is wholly in sight. */
(function () {
  "use strict";

  function setupReplay(box) {
    var frames = Array.prototype.slice.call(box.querySelectorAll(".frame"));
    if (frames.length < 2) return;
    var controls = box.querySelector(".controls");
    var status = controls.querySelector("output");
    var buttons = {};
    controls.querySelectorAll("button[data-step]").forEach(function (b) { buttons[b.dataset.step] = b; });
    var index = 0;
    var hash = window.location.hash.match(/^#frame-(\d+)-(\d+)$/);
    if (hash) {
      frames.forEach(function (f, i) { if (f.id === hash[0].slice(1)) index = i; });
    }
    var moveItems = Array.prototype.slice.call(box.querySelectorAll("[data-frame]"));
    var list = box.querySelector(".moves");
    function show(i) {
      index = Math.max(0, Math.min(frames.length - 1, i));
      frames.forEach(function (f, j) { f.classList.toggle("current", j === index); });
      moveItems.forEach(function (m) {
        var on = m.dataset.frame === frames[index].id;
        if (on) m.setAttribute("aria-current", "step"); else m.removeAttribute("aria-current");
        if (on && list && list.scrollHeight > list.clientHeight) {  // the current move in sight, page still
          var item = m.getBoundingClientRect(), view = list.getBoundingClientRect();
          if (item.top < view.top) list.scrollTop -= view.top - item.top + 8;
          else if (item.bottom > view.bottom) list.scrollTop += item.bottom - view.bottom + 8;
        }
      });
      // The sentence comes from the page, in its language: "Position %(n)s of %(count)s: %(caption)s".
      var words = box.dataset.positionWords || "Position %(n)s of %(count)s: %(caption)s";
      status.textContent = words.replace("%(n)s", index + 1).replace("%(count)s", frames.length)
        .replace("%(caption)s", (frames[index].querySelector(".play-caption") || {}).textContent);
      buttons.first.disabled = buttons.prev.disabled = index === 0;
      buttons.next.disabled = buttons.last.disabled = index === frames.length - 1;
    }
    controls.hidden = false;
    box.classList.add("enhanced");
    controls.addEventListener("click", function (e) {
      var step = e.target.closest("button[data-step]");
      if (!step) return;
      show({ first: 0, prev: index - 1, next: index + 1, last: frames.length - 1 }[step.dataset.step]);
    });
    box.addEventListener("click", function (e) {
      var link = e.target.closest("a[data-frame]");
      if (!link) return;
      e.preventDefault();
      frames.forEach(function (f, i) { if (f.id === link.dataset.frame) show(i); });
    });
    box.addEventListener("keydown", function (e) {
      if (e.target.matches("input, select, textarea")) return;
      var moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: frames.length - 1 };
      if (e.key in moves) { e.preventDefault(); show(moves[e.key]); }
    });
    show(index);
  }

  function setupPoll(el) {
    var seconds = parseInt(el.dataset.pollSeconds || "20", 10);
    var url = el.dataset.poll;
    function tick() {
      if (document.hidden) return schedule();
      fetch(url, { headers: { "X-Requested-With": "fetch" }, credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (html !== null) {
            var focused = document.activeElement && el.contains(document.activeElement) ? document.activeElement.id : null;
            el.innerHTML = html;
            if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
          }
          if (el.querySelector("[data-poll-stop]")) return;
          schedule();
        })
        .catch(schedule);
    }
    function schedule() { window.setTimeout(tick, seconds * 1000); }
    schedule();
  }

  /* Morphing keeps elements (and so scroll positions and focus); these keep the reader's state
     that lives in attributes: an opened <details>, and attributes named in data-keep. */
  function keepReaderState() {
    if (!window.Idiomorph) return;
    window.Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, node) {
      if (name === "open" && node.tagName === "DETAILS") return false;
      var keep = node.getAttribute && node.getAttribute("data-keep");
      if (keep && keep.split(" ").indexOf(name) >= 0) return false;
      return true;
    };
  }

  /* The bracket on a phone: one round at a time. */
  function rtl(el) { return getComputedStyle(el).direction === "rtl"; }
  function syncTabs(frame) {
    var board = frame.querySelector(".bk");
    if (!board) return;
    if (!frame.hasAttribute("data-show")) frame.setAttribute("data-show", board.dataset.current || "0");
    var shown = frame.getAttribute("data-show");
    if (!frame.querySelector('.bk-tab[data-col="' + shown + '"]')) {
      shown = board.dataset.current || "0";
      frame.setAttribute("data-show", shown);
    }
    frame.querySelectorAll(".bk-tab").forEach(function (tab) {
      var on = tab.dataset.col === shown;
      tab.setAttribute("aria-pressed", on ? "true" : "false");
      var strip = tab.parentNode;
      if (on && strip.scrollWidth > strip.clientWidth) {
        // Right to left, the strip starts at its right edge and scrolls to negative offsets.
        strip.scrollLeft = rtl(strip)
          ? -(strip.offsetLeft + strip.clientWidth - tab.offsetLeft - tab.offsetWidth - 16)
          : tab.offsetLeft - strip.offsetLeft - 16;
      }
    });
  }
  document.addEventListener("click", function (e) {
    var tab = e.target.closest(".bk-tab");
    if (!tab) return;
    var frame = tab.closest(".bk-frame");
    frame.setAttribute("data-show", tab.dataset.col);
    syncTabs(frame);
  });
  document.addEventListener("keydown", function (e) {
    var tab = e.target.closest && e.target.closest(".bk-tab");
    if (!tab || (e.key !== "ArrowRight" && e.key !== "ArrowLeft")) return;
    // The next round is the next tab in reading order: to the left on a right-to-left page.
    var forward = (e.key === "ArrowRight") !== rtl(tab);
    var next = forward ? tab.nextElementSibling : tab.previousElementSibling;
    if (next) { next.focus(); next.click(); e.preventDefault(); }
  });
  /* A swipe sideways on the phone's bracket moves to the next or previous round. */
  var touch = null;
  document.addEventListener("touchstart", function (e) {
    var frame = e.target.closest && e.target.closest(".bk-frame[data-show]");
    touch = frame ? { frame: frame, x: e.touches[0].clientX, y: e.touches[0].clientY } : null;
  }, { passive: true });
  document.addEventListener("touchend", function (e) {
    if (!touch) return;
    var dx = e.changedTouches[0].clientX - touch.x, dy = e.changedTouches[0].clientY - touch.y;
    if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(dy)) {
      var current = touch.frame.querySelector('.bk-tab[aria-pressed="true"]');
      var forward = (dx < 0) !== rtl(touch.frame);
      var next = current && (forward ? current.nextElementSibling : current.previousElementSibling);
      if (next) next.click();
    }
    touch = null;
  }, { passive: true });

  /* A player's path through a bracket, lit while the pointer or the focus is on him. */
  function light(board, ids) {
    board.querySelectorAll(".hl").forEach(function (el) { el.classList.remove("hl"); });
    ids.forEach(function (id) {
      board.querySelectorAll('.bk-side[data-p="' + id + '"], path[data-p="' + id + '"]').forEach(function (el) {
        el.classList.add("hl");
      });
    });
  }
  document.addEventListener("mouseover", function (e) {
    var side = e.target.closest && e.target.closest(".bk-side[data-p]");
    var board = side && side.closest(".bk");
    if (board) light(board, [side.dataset.p]);
  });
  document.addEventListener("mouseout", function (e) {
    var board = e.target.closest && e.target.closest(".bk");
    if (board && !(e.relatedTarget && e.relatedTarget.closest && e.relatedTarget.closest(".bk-side[data-p]"))) light(board, []);
  });
  document.addEventListener("focusin", function (e) {
    var box = e.target.closest && e.target.closest(".bk-box[data-ps]");
    if (box) light(box.closest(".bk"), box.dataset.ps.split(" ").filter(Boolean));
  });

  /* Find my match: the matches to play now with that name, and the name marked in the brackets. */
  function find(input) {
    var scope = document.querySelector(input.dataset.find);
    if (!scope) return;
    var q = input.value.trim().toLowerCase();
    var shown = 0;
    var more = scope.querySelector(".now-more details");
    if (more && q) more.open = true;
    scope.querySelectorAll(".now-item").forEach(function (item) {
      var hit = !q || item.dataset.names.indexOf(q) >= 0;
      item.hidden = !hit;
      item.classList.toggle("found", !!q && hit);
      if (hit) shown += 1;
    });
    var first = null;
    scope.querySelectorAll(".bk-side .nm").forEach(function (nm) {
      var hit = !!q && nm.textContent.toLowerCase().indexOf(q) >= 0;
      nm.parentNode.classList.toggle("hl", hit);
      if (hit && !first) first = nm;
    });
    var out = document.getElementById(input.id + "-result");
    if (out) out.textContent = q ? found(input, shown) : "";
    return first;
  }
  /* "3 matches to play now for “Anna”." in the page's language (static/words.js reads the words
     the page carries with the search, templates/tournaments/event.html). */
  function found(input, shown) {
    var values = { n: String(shown), name: input.value.trim() };
    if (!shown) return window.crawfordWords.say("No match to play now for \u201c%(name)s\u201d.", values);
    return window.crawfordWords.count("%(n)s match to play now for \u201c%(name)s\u201d.",
                                      "%(n)s matches to play now for \u201c%(name)s\u201d.", shown, values);
  }
  document.querySelectorAll("input[data-find]").forEach(function (input) {
    input.addEventListener("input", function () { find(input); });
  });

  /* The rating chart: the value under the pointer, or stepped with the arrow keys. */
  function setupChart(svg) {
    var ns = "http://www.w3.org/2000/svg";
    var points = svg.dataset.points.split(";").map(function (p) {
      var f = p.split(","); return { x: +f[0], y: +f[1], value: f[2], date: f[3] };
    });
    var out = document.getElementById("chart-value");
    var rule = document.createElementNS(ns, "line");
    rule.setAttribute("class", "c-rule");
    var mark = document.createElementNS(ns, "circle");
    mark.setAttribute("class", "c-mark"); mark.setAttribute("r", "5");
    var index = points.length - 1;
    function show(i) {
      index = Math.max(0, Math.min(points.length - 1, i));
      var p = points[index];
      rule.setAttribute("x1", p.x); rule.setAttribute("x2", p.x);
      rule.setAttribute("y1", 8); rule.setAttribute("y2", svg.viewBox.baseVal.height - 40);
      mark.setAttribute("cx", p.x); mark.setAttribute("cy", p.y);
      if (!rule.parentNode) { svg.appendChild(rule); svg.appendChild(mark); }
      if (out) out.textContent = p.value + " on " + p.date + (index === 0 ? " (start)" : "");
    }
    function showAt(e) {
      var box = svg.getBoundingClientRect();
      var x = (e.clientX - box.left) * svg.viewBox.baseVal.width / box.width;
      var best = 0;
      points.forEach(function (p, i) { if (Math.abs(p.x - x) < Math.abs(points[best].x - x)) best = i; });
      show(best);
    }
    /* A mouse hovers, a finger taps (or slides along the chart): each shows that date's value. */
    svg.addEventListener("pointermove", showAt);
    svg.addEventListener("pointerdown", showAt);
    svg.addEventListener("focus", function () { show(index); });
    svg.addEventListener("keydown", function (e) {
      var moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: points.length - 1 };
      if (e.key in moves) { e.preventDefault(); show(moves[e.key]); }
    });
  }
  document.querySelectorAll("svg.chart[data-points]").forEach(setupChart);

  /* Player names: suggestions from the typed part of a name. */
  document.querySelectorAll("form[data-suggest-url] input[data-suggest]").forEach(function (input) {
    var url = input.form.dataset.suggestUrl, list = document.getElementById(input.dataset.suggest), timer = null;
    input.addEventListener("input", function () {
      window.clearTimeout(timer);
      var q = input.value.trim();
      if (q.length < 2) return;
      timer = window.setTimeout(function () {
        fetch(url + "?q=" + encodeURIComponent(q), { credentials: "same-origin" })
          .then(function (r) { return r.ok ? r.json() : { players: [] }; })
          .then(function (data) {
            list.textContent = "";
            data.players.forEach(function (p) {
              var option = document.createElement("option");
              option.value = p.value; option.label = p.label;
              list.appendChild(option);
            });
          });
      }, 150);
    });
  });

  function afterUpdate() {
    document.querySelectorAll(".bk-frame").forEach(syncTabs);
    document.querySelectorAll("input[data-find]").forEach(function (input) { if (input.value) find(input); });
  }
  document.addEventListener("htmx:afterSettle", afterUpdate);

  // No inline handlers (the Content-Security-Policy forbids them): a print button and a form that
  // only filters the page say so with data attributes.
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) window.print();
  });
  document.addEventListener("submit", function (event) {
    if (event.target.matches("form[data-stay]")) event.preventDefault();
  });
  // A live part polls only while the page is seen (the filter lives here, not in an evaluated
  // trigger expression).
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.target.matches("[data-visible-only]") && document.visibilityState !== "visible") event.preventDefault();
    // A part that keeps what the person is typing: no refresh while a field in it is in use.
    if (event.target.matches("[data-keep-typed]") && (event.target.contains(document.activeElement) &&
        document.activeElement.matches("input, textarea, select") ||
        Array.prototype.some.call(event.target.querySelectorAll("input:not([type=hidden]), textarea"),
          function (field) { return field.value !== field.defaultValue; }))) event.preventDefault();
  });

  /* On a phone the site's menu scrolls sideways (crawford.css); the browser's own scroll to a link
     taking the focus stops at the first sliver of it in sight, so Tab would leave the link half
     hidden. One wider than the menu's row (a long "Log out <name>") shows its beginning. */
  var siteNav = document.querySelector(".site-nav");
  if (siteNav) siteNav.addEventListener("focusin", function (event) {
    if (siteNav.scrollWidth <= siteNav.clientWidth) return;
    var room = siteNav.clientWidth - 2 * (parseFloat(getComputedStyle(siteNav).scrollPaddingInlineStart) || 0);
    event.target.scrollIntoView({ block: "nearest", inline: event.target.offsetWidth > room ? "start" : "nearest" });
  });

  keepReaderState();
  afterUpdate();
  document.querySelectorAll("[data-replay]").forEach(setupReplay);
  document.querySelectorAll("[data-poll]").forEach(setupPoll);
})();
