// Node module hooks for tests/js: Trystero's modules (an import map in the page)
// are stood in for by fake_trystero.mjs.
export async function resolve(specifier, context, next) {
  if (specifier.startsWith("@trystero-p2p/")) {
    return { url: new URL("./fake_trystero.mjs", import.meta.url).href, shortCircuit: true };
  }
  return next(specifier, context);
}
