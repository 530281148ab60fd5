// A game's clock as every page shows it between events: the view's own text while the clock
// stands, else accumulated + (the daemon's now - running_since), written as
// GameViewModel.clockText writes it (mm:ss.t, tenths rounded down). `game` is {clock, view}:
// the protocol's state.clock and the GameViewModel; `offset` is the daemon's time minus ours.
window.courtsideClock = function (game, offset) {
  const c = game.clock;
  if (!game.view.isRunning || !c || c.running_since == null) return game.view.clock;
  const ms = Math.max(0, c.accumulated_ms + Math.max(0, Date.now() + offset - c.running_since));
  const tenths = Math.floor(ms / 100), seconds = Math.floor(tenths / 10);
  return String(Math.floor(seconds / 60)).padStart(2, "0") + ":" + String(seconds % 60).padStart(2, "0") + "." + (tenths % 10);
};
