/* Crawford's few lines of script. Every page works without them; they add:
   - the replay stepper (buttons, arrow keys, Home/End) over the list of positions;
   - refreshing a fragment of a page while an event runs or ratings recompute ([data-poll]). */
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
    function show(i) {
      index = Math.max(0, Math.min(frames.length - 1, i));
      frames.forEach(function (f, j) { f.classList.toggle("current", j === index); });
      status.textContent = "Position " + (index + 1) + " of " + frames.length + ": " +
        (frames[index].querySelector(".play-caption") || {}).textContent;
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

  document.querySelectorAll("[data-replay]").forEach(setupReplay);
  document.querySelectorAll("[data-poll]").forEach(setupPoll);
})();
