// The new-competition form: changing the game shows that game's rule sets and entries at once
// (as the "Choose game" button does without JavaScript), so the form never shows one game's
// entries under another game's name; and the number of matches each kind would play follows
// the bots ticked and the rounds typed (the server's figures per field size, in data-counts).
(function () {
  "use strict";
  var select = document.getElementById("game-select");
  var choose = document.getElementById("choose-game");
  if (select && choose) {
    select.addEventListener("change", function () {
      choose.click();
    });
  }
  var kinds = document.getElementById("kinds");
  var form = document.getElementById("new-competition");
  if (!kinds || !form) {
    return;
  }
  var table = JSON.parse(kinds.getAttribute("data-counts") || "[]");
  function number(name) {
    var input = form.querySelector("input[name=" + name + "]");
    var n = input ? parseInt(input.value, 10) : NaN;
    return isNaN(n) || n < 1 ? null : n;
  }
  function say(which, values) {
    var el = kinds.querySelector("[data-count=" + which + "]");
    if (!el) {
      return;
    }
    var text = el.getAttribute("data-template");
    Object.keys(values).forEach(function (key) {
      text = text.split("§" + key).join(values[key].toLocaleString());
    });
    el.textContent = text;
  }
  function update() {
    var ticked = form.querySelectorAll("input[name=submission]:checked").length;
    var row = table[Math.min(ticked, table.length - 1)];
    if (!row) {
      return;
    }
    var rounds = number("rounds") || 1;
    var swissRounds = number("swiss_rounds") || row.rounds;
    say("ticked", { n: ticked });
    say("round_robin", { n: row.rr * rounds });
    say("swiss", { n: row.per_round * swissRounds, r: swissRounds });
    var placeholder = document.getElementById("swiss-rounds");
    if (placeholder) {
      placeholder.placeholder = String(row.rounds);
    }
  }
  form.addEventListener("change", update);
  form.addEventListener("input", update);
})();
