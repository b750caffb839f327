// The server's catalog (GET /rules), fetched once: the rule options, presets and limits the
// forms offer, the tournament formats, and the game's own tables (`cards`: each suit's
// order and points, trump and plain; `scoring`: the deal's points, the last trick, the pit
// bonus, roem). The page keeps no copy of a rule: it reads them here.

let catalog = null; // what GET /rules answered
let loading = null; // the one request (retried until the server answers)

// The catalog, once the server has answered (the same promise for every caller).
export function loadCatalog() {
  loading ??= (async () => {
    for (let wait = 250; ; wait = Math.min(wait * 2, 4000)) {
      try {
        const response = await fetch('/rules', { cache: 'no-cache' });
        if (response.ok) {
          catalog = await response.json();
          return catalog;
        }
      } catch {
        // the server is not reachable yet
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  return loading;
}

// The catalog as it came (null until GET /rules answers).
export const rulesCatalog = () => catalog;
