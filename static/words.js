/* The words the site's scripts say, in the page's language. A page carries the translations of
   the strings its scripts show, made on the server with {% translate %} in <template data-words>
   (the desk's in templates/tournaments/_desk_words.html, a score sheet's in
   templates/games/_sheet_words.html, the offline queue's in templates/tournaments/_offline_words.html,
   Find my match's in templates/tournaments/event.html), each under its English. A plural is
   rendered for a few counts (data-count); for each plural category of the page's language
   (Intl.PluralRules) the form taken is the first count's in it. A page without them, or a string
   not among them, says the English.

   Loaded before the other scripts (base.html's head, the projector's):
     crawfordWords.say("Saving…")
     crawfordWords.say("Not saved: %(match)s. %(why)s", { match: …, why: … })
     crawfordWords.count("%(n)s result waiting to send.", "%(n)s results waiting to send.", n, { n: n }) */
(function () {
  "use strict";
  var read = new WeakMap();  // each <template data-words> -> {words, plurals}, read once

  function category(n) {
    var lang = document.documentElement.lang || "en";
    return window.Intl && Intl.PluralRules ? new Intl.PluralRules(lang).select(n) : (n === 1 ? "one" : "other");
  }

  function wordsOf(box) {
    var known = read.get(box);
    if (known) return known;
    known = { words: {}, plurals: {} };  // English -> text; English singular -> {category: text}
    box.content.querySelectorAll("[data-text]").forEach(function (el) {
      var english = el.dataset.text;
      if (el.dataset.count === undefined) { known.words[english] = el.textContent; return; }
      var forms = known.plurals[english] = known.plurals[english] || {};
      var kind = category(parseInt(el.dataset.count, 10));
      if (!(kind in forms)) forms[kind] = el.textContent;
    });
    read.set(box, known);
    return known;
  }

  /* What the page's boxes hold under `english` in `table` ("words" or "plurals"), or undefined. */
  function lookUp(table, english) {
    var boxes = document.querySelectorAll("template[data-words]");
    for (var i = 0; i < boxes.length; i++) {
      var entries = wordsOf(boxes[i])[table];
      if (Object.prototype.hasOwnProperty.call(entries, english)) return entries[english];
    }
    return undefined;
  }

  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all;
    });
  }

  window.crawfordWords = {
    /* `english` in the page's language, its %(name)s filled from `values`. */
    say: function (english, values) {
      var text = lookUp("words", english);
      return fill(text === undefined ? english : text, values);
    },
    /* The message whose words follow the count `n` (its English singular and plural), in the
       page's language, its %(name)s filled from `values`. */
    count: function (singular, plural, n, values) {
      var forms = lookUp("plurals", singular) || {};
      var kind = category(n);
      var text = forms[kind] || forms.other || (n === 1 ? singular : plural);
      return fill(text, values);
    }
  };
})();
