// The new-competition form: changing the game shows that game's rule sets and entries at once
// (as the "Choose game" button does without JavaScript), so the form never shows one game's
// entries under another game's name.
(function () {
  "use strict";
  var select = document.getElementById("game-select");
  var choose = document.getElementById("choose-game");
  if (!select || !choose) {
    return;
  }
  select.addEventListener("change", function () {
    choose.click();
  });
})();
