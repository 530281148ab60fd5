// What the keeper page keeps on the device. Its outbox in IndexedDB (keeper.js keeps its mirror):
// it survives a reload and a closed tab. `put` writes an entry (an added one gets its `seq`),
// `drop` removes it, `all` reads every stored entry. And what it last knew, in localStorage.
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
  addEventListener("pagehide", flush);
  return {
    saved, save, saveSoon: (key, value) => { soon.set(key, value); if (timer === null) timer = setTimeout(flush, 1000); },
    put: (entry) => write(entry, () => store("readwrite", (s) => s.put(entry)).then((seq) => { entry.seq = seq; return entry; })),
    drop: (entry) => write(entry, () => (entry.seq === undefined ? undefined : store("readwrite", (s) => s.delete(entry.seq)))),
    all: () => store("readonly", (s) => s.getAll()),
  };
})();
