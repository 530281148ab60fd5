// What the keeper page keeps on the device. Its outbox in IndexedDB (keeper.js keeps its mirror):
// it survives a reload and a closed tab. `put` writes an entry (an added one gets its `seq`),
// `drop` removes it (`putSoon`, `dropSoon`: a quarter second later), `all` reads every stored
// entry. And what it last knew, in localStorage.
window.courtsideKeeperStore = (function () {
  "use strict";
  const opened = new Promise((resolve, reject) => {
    const request = indexedDB.open("courtside-keeper", 1);
    request.onupgradeneeded = () => request.result.createObjectStore("outbox", { keyPath: "seq", autoIncrement: true });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  function store(mode, work) {
    return opened.then((db) => new Promise((resolve, reject) => {
      const t = db.transaction("outbox", mode), request = work(t.objectStore("outbox"));
      t.oncomplete = () => resolve(request && request.result);
      t.onerror = () => reject(t.error);
    }));
  }
  // One write at a time for each entry: an update written before the entry's first write had
  // its key back would add a second record (the key is autoIncrement), which a reload then
  // reads as a second tap, later in the queue than the first.
  const writes = new WeakMap();
  function write(entry, work) {
    const done = (writes.get(entry) || Promise.resolve()).then(work, work);
    writes.set(entry, done.catch(() => {}));
    return done;
  }
  // What the page last knew (its session, its court's games), in localStorage for a reload while
  // offline (the service worker serves the frame). `saveSoon` writes a second after its first
  // call, once for every call of that second, and at once when the page goes: a synchronous
  // write of the court's games at each event held up the answer to the tap that made it.
  const saved = (key, fallback) => { try { return JSON.parse(localStorage.getItem("courtside." + key)) || fallback; } catch (e) { return fallback; } };
  const save = (key, value) => { try { localStorage.setItem("courtside." + key, JSON.stringify(value)); } catch (e) { /* full: the live copy still works */ } };
  const soon = new Map();  // a key, and what gives its value when written
  let timer = null;
  function flush() {
    clearTimeout(timer);
    timer = null;
    for (const [key, value] of soon) save(key, value());
    soon.clear();
  }
  // An outbox entry's write or delete that may wait a quarter second (an answered entry's: a
  // reload before it lands sends it again, answered once), made then with every other come
  // meanwhile: each write's completion is work on the page's main thread, and when it landed as
  // the next tap's answer came, that answer waited (a keeper's taps come in bursts). A write made
  // at once of the same entry takes its place.
  const later = new Map();  // an entry, and its write to come: put or drop
  let laterTimer = null;
  function settle() {
    clearTimeout(laterTimer);
    laterTimer = null;
    const writes = [...later];
    later.clear();
    for (const [entry, work] of writes) work(entry).catch((e) => console.warn("the outbox could not be saved on this device", e));
  }
  function soonWrite(entry, work) {
    later.set(entry, work);
    if (laterTimer === null) laterTimer = setTimeout(settle, 250);
    return Promise.resolve();
  }
  const put = (entry) => { later.delete(entry); return write(entry, () => store("readwrite", (s) => s.put(entry)).then((seq) => { entry.seq = seq; return entry; })); };
  const drop = (entry) => { later.delete(entry); return write(entry, () => (entry.seq === undefined ? undefined : store("readwrite", (s) => s.delete(entry.seq)))); };
  addEventListener("pagehide", () => { flush(); settle(); });
  return {
    saved, save, saveSoon: (key, value) => { soon.set(key, value); if (timer === null) timer = setTimeout(flush, 1000); },
    put, drop, putSoon: (entry) => soonWrite(entry, put), dropSoon: (entry) => soonWrite(entry, drop),
    all: () => store("readonly", (s) => s.getAll()),
  };
})();
