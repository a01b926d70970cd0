// The page's words in its language, for the site's scripts. The server writes them into
// <script type="application/json" class="croupier-words"> blocks (a page may have several);
// this reads them once. Load it (deferred) before the scripts that use it.
//
// croupierWords.t("viewer-step", "Step {step} of {last}", {step: 2, last: 9}): the page's
// words for `key` (for args.n === 1 its `key#one` form), else `english`, with each {name}
// filled in.
window.croupierWords = window.croupierWords || (function () {
  "use strict";
  var WORDS = {};
  Array.prototype.forEach.call(document.querySelectorAll("script.croupier-words"), function (node) {
    try {
      var words = JSON.parse(node.textContent);
      Object.keys(words).forEach(function (key) { WORDS[key] = words[key]; });
    } catch (err) { /* English, as the scripts write it */ }
  });
  function t(key, english, args) {
    var text = WORDS[key];
    if (args && args.n === 1 && typeof WORDS[key + "#one"] === "string") text = WORDS[key + "#one"];
    if (typeof text !== "string") text = english;
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return args && Object.prototype.hasOwnProperty.call(args, name) ? String(args[name]) : whole;
    });
  }
  return { t: t };
})();
