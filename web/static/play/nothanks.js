// No Thanks at the play page (see pick.js): Take the card on offer (also by clicking it) or
// say No thanks, paying a coin.
(function () {
  "use strict";
  window.CroupierPlay.register("nothanks", function (api) {
    var t = api.t;
    var take = api.find(function (a) { return a === "pick"; });
    var pass = api.find(function (a) { return a === "pass"; });
    var me = (api.obs.players || [])[api.seat] || {};
    var offer = api.board.querySelector("[data-offer]");
    var card = api.obs.field_card;
    if (offer) api.pick(offer, take, t("play-nt-cannot-take", "You cannot take the card now."));
    api.row([
      api.button(t("play-nt-take", "Take {card} (and {n} coins)", { card: card, n: api.obs.field_coins || 0 }), take,
        t("play-nt-cannot-take", "You cannot take the card now."), null, "play-nt-take"),
      api.button(t("play-nt-pass", "No thanks (pay a coin)"), pass,
        me.coins === 0 ? t("play-nt-no-coins", "You have no coins left: you must take the card.") : t("play-nt-cannot-pass", "You cannot pass now."), null, "play-nt-pass")
    ], t("play-nt-choices", "Take or pass"));
  });
})();
