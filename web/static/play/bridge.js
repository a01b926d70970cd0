// Contract Bridge at the play page (see pick.js): in the auction a bidding box (levels 1–7 by
// strain, Pass, and X / XX, which this game's protocol does not have); in the play, a card of
// the hand due to play (one's own, or dummy's for declarer) is clicked.
(function () {
  "use strict";
  var STRAINS = [["C", "\u2663"], ["D", "\u2666"], ["H", "\u2665"], ["S", "\u2660"], ["N", "NT"]];
  var SUIT = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

  window.CroupierPlay.register("bridge", function (api) {
    var t = api.t;
    var calls = api.find(function (a) { return a && typeof a.call === "string"; });
    var cards = api.find(function (a) { return a && typeof a.play === "string"; });

    if (calls.length) {
      var grid = api.el("div", { class: "pl-bids", role: "group", "aria-label": t("play-br-bidding-box", "Bidding box") });
      for (var level = 1; level <= 7; level++) {
        STRAINS.forEach(function (s) {
          var code = s[0] + "-" + level;
          var moves = calls.filter(function (m) { return m.action.call === code; });
          var b = api.button(level + s[1], moves, t("play-br-too-low", "A bid must be higher than the last one."));
          if (s[0] === "D" || s[0] === "H") b.classList.add("br-red");
          grid.appendChild(b);
        });
      }
      api.panel.appendChild(grid);
      var noDoubles = t("play-br-no-doubles", "This game's rules have no double or redouble.");
      api.row([
        api.button(t("viewer-bridge-pass", "Pass"), calls.filter(function (m) { return m.action.call === "pass"; }), null, null, "play-br-pass"),
        api.button("X", [], noDoubles),
        api.button("XX", [], noDoubles)
      ]);
      return;
    }

    // The play: the cards of the hand due to play.
    var hand = api.obs.playing_hand;
    if (hand === null || hand === undefined) hand = api.seat;
    var box = api.board.querySelector(".br-hand[data-seat='" + hand + "']");
    var trick = (api.obs.tricks || [])[(api.obs.tricks || []).length - 1];
    var led = trick && trick.cards && trick.cards.length && trick.cards.length < 4 ? trick.cards[0].charAt(0) : null;
    if (box) {
      Array.prototype.forEach.call(box.querySelectorAll("[data-card]"), function (node) {
        var code = node.getAttribute("data-card");
        var moves = cards.filter(function (m) { return m.action.play === code; });
        var why = led && code.charAt(0) !== led
          ? t("play-br-follow", "You must follow suit ({suit}).", { suit: SUIT[led] })
          : t("play-br-cannot-play", "You cannot play this card now.");
        api.pick(node, moves, why);
      });
    }
    api.text(hand === api.seat ? t("play-br-play-how", "Click a card in your hand to play it.")
      : t("play-br-play-dummy", "Click a card in dummy's hand to play it."));
  });
})();
