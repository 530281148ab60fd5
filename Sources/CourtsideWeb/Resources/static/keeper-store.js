// The keeper page's outbox in IndexedDB (keeper.js keeps its mirror): it survives a reload and
// a closed tab. `put` writes an entry (an added one gets its `seq`), `drop` removes it, `all`
// reads every stored entry.
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
  return {
    put: (entry) => write(entry, () => store("readwrite", (s) => s.put(entry)).then((seq) => { entry.seq = seq; return entry; })),
    drop: (entry) => write(entry, () => (entry.seq === undefined ? undefined : store("readwrite", (s) => s.delete(entry.seq)))),
    all: () => store("readonly", (s) => s.getAll()),
  };
})();
