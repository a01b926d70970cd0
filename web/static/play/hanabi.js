// Hanabi at the play page (see pick.js): a card of one's own hand is played or discarded (a
// choice of the two); another player's card gives them a hint of its colour or its number.
(function () {
  "use strict";

  window.CroupierPlay.register("hanabi", function (api) {
    var t = api.t;
    var tokens = api.obs.hint_tokens || 0;
    Array.prototype.forEach.call(api.board.querySelectorAll(".hb-slot[data-seat]"), function (node) {
      var seat = parseInt(node.getAttribute("data-seat"), 10);
      var slot = parseInt(node.getAttribute("data-slot"), 10);
      if (seat === api.seat) {
        var own = api.find(function (a) { return (a.action === "play" || a.action === "discard") && a.card === slot; });
        api.pick(node, own, t("play-hb-cannot-own", "You cannot play or discard now."));
        return;
      }
      var color = parseInt(node.getAttribute("data-color"), 10);
      var number = parseInt(node.getAttribute("data-number"), 10);
      var hints = api.find(function (a) {
        return a.target === seat && ((a.action === "hint_color" && a.color === color) || (a.action === "hint_number" && a.number === number));
      });
      api.pick(node, hints, tokens === 0 ? t("play-hb-no-tokens", "No hint tokens left: play or discard instead.")
        : t("play-hb-cannot-hint", "You cannot give this hint now."));
    });
    api.text(t("play-hb-how", "Click one of your cards to play or discard it, or another player's card to hint its colour or number."));
  });
})();
