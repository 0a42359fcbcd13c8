// The page's JS modules, checked with node alone (no npm package: the page has no build step and no
// package.json dependencies): every module under web/ and examples/ is parsed as an ES module by
// node's own parser (vm.SourceTextModule), every import (static, or dynamic with a literal specifier) of a
// relative or root path resolves to a file, the page's modules name no bare package (a browser has no import
// map here; the node tests may name `node:` builtins), every module is linked with the modules it imports, so
// an import of a name the other module does not export fails here and not in a browser, no two page
// modules (web/js) share a file name, index.js aside, no page modules import each other in a circle, and an
// example (examples/) imports nothing but the page's public module, /js/refreshkit.js.
//
//   node scripts/lint/check-js.mjs [ROOT]        ROOT: the repository (default: the one this file is in)
//
// Exits 1 with one line per problem, `path: what`. vm.SourceTextModule needs --experimental-vm-modules: this
// script starts itself again with it when it was not given.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, basename, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

if (typeof vm.SourceTextModule !== 'function') {
  const again = spawnSync(
    process.execPath,
    ['--experimental-vm-modules', '--no-warnings', fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  process.exit(again.status ?? 1);
}

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..'));
const FOLDERS = ['web', 'examples'];
const PAGE = join(root, 'web', 'js'); // the page's own modules: their file names must be unique
const WEB_ROOT = join(root, 'web'); // what a page's `/…` import names (the server's --web-root)
const SKIP = new Set(['node_modules', '.build']);

const problems = [];
const problem = (file, what) => problems.push(`${relative(root, file)}: ${what}`);

function modulesUnder(folder) {
  if (!existsSync(folder)) return [];
  const found = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && !SKIP.has(entry.name)) found.push(...modulesUnder(path));
    else if (entry.isFile() && /\.m?js$/.test(entry.name)) found.push(path);
  }
  return found.sort();
}

const files = FOLDERS.flatMap((f) => modulesUnder(join(root, f)));

// node's parser names the error but not where it is: `node --check` (as a module) says where.
function syntaxError(file, error) {
  const check = spawnSync(process.execPath, ['--experimental-default-type=module', '--check', file], {
    encoding: 'utf8',
  });
  const where = (check.stderr || '').split('\n').find((line) => line.startsWith(file + ':'));
  problem(file, `${error.message}${where ? ` (at ${relative(root, where)})` : ''}`);
}

const modules = new Map(); // path → SourceTextModule
for (const file of files) {
  try {
    modules.set(file, new vm.SourceTextModule(readFileSync(file, 'utf8'), { identifier: file }));
  } catch (error) {
    syntaxError(file, error);
  }
}

/** Where `specifier` in `file` leads: a path, a `node:` builtin, or a problem (undefined). */
function resolveSpecifier(file, specifier) {
  if (specifier.startsWith('./') || specifier.startsWith('../')) return resolve(dirname(file), specifier);
  if (specifier.startsWith('/')) return join(WEB_ROOT, specifier);
  const isTest = file.startsWith(join(root, 'web', 'test') + sep);
  if (isTest && specifier.startsWith('node:')) return specifier;
  problem(file, `imports '${specifier}': a page module imports relative or root paths only`);
  return undefined;
}

const isFile = (path) => existsSync(path) && statSync(path).isFile();

// An example (examples/**) imports the page's public module only: the rest of web/js is the demo page's own and
// may change without notice (docs/PAGE.md), and an example is what a newcomer copies.
const EXAMPLES = join(root, 'examples');
const FRONT_DOOR = '/js/refreshkit.js';
function checkExampleImport(file, specifier) {
  if (!file.startsWith(EXAMPLES + sep) || specifier === FRONT_DOOR) return;
  problem(file, `imports '${specifier}': an example imports '${FRONT_DOOR}' only, which exports the controls API, ` +
    `the drawing helpers and t (docs/PAGE.md, "What /js/refreshkit.js exports")`);
}

const broken = new Set(files.filter((file) => !modules.has(file))); // not linked: a problem of its own is out
const dependencies = new Map(); // path → [static import targets]
const DYNAMIC = /\bimport\(\s*(['"])([^'"`]+)\1\s*\)/g;
for (const [file, module] of modules) {
  const dynamic = [...readFileSync(file, 'utf8').matchAll(DYNAMIC)].map((m) => m[2]);
  const targets = [];
  for (const specifier of [...module.dependencySpecifiers, ...dynamic]) {
    checkExampleImport(file, specifier);
    const target = resolveSpecifier(file, specifier);
    if (target === undefined) {
      broken.add(file);
    } else if (!target.startsWith('node:') && !isFile(target)) {
      problem(file, `imports '${specifier}', which is not a file (${relative(root, target)})`);
      broken.add(file);
    } else if (module.dependencySpecifiers.includes(specifier) && !target.startsWith('node:')) {
      targets.push(target);
    }
  }
  dependencies.set(file, targets);
}

// Linking checks every imported name against the exports of the module it comes from (nothing runs). The
// modules are linked dependencies first, so that linking one checks its own imports only and a problem is
// reported where it is (within an import cycle, at the member linked first); a module that imports a broken
// one is left for later (its own problem shows once that one is fixed).
const builtins = new Map();
async function builtin(specifier) {
  if (!builtins.has(specifier)) {
    const real = await import(specifier);
    const names = Object.keys(real);
    const synthetic = new vm.SyntheticModule(
      names,
      function () {
        for (const name of names) this.setExport(name, real[name]);
      },
      { identifier: specifier },
    );
    builtins.set(specifier, synthetic);
  }
  return builtins.get(specifier);
}

const order = [];
const visited = new Set();
function visit(file) {
  if (visited.has(file)) return;
  visited.add(file);
  for (const target of dependencies.get(file) ?? []) visit(target);
  order.push(file);
}
for (const file of modules.keys()) visit(file);

const failed = new Set(broken);
for (const file of order) {
  const module = modules.get(file);
  if (!module || module.status !== 'unlinked') continue;
  if (failed.has(file) || dependencies.get(file).some((target) => failed.has(target) || !modules.has(target))) {
    failed.add(file);
    continue;
  }
  try {
    await module.link(async (specifier, referencing) => {
      const target = resolveSpecifier(referencing.identifier, specifier);
      return target.startsWith('node:') ? builtin(target) : modules.get(target);
    });
  } catch (error) {
    problem(file, error.message);
    failed.add(file);
  }
}

// Import cycles among the page's modules (static imports: they decide the order modules run in, and a module
// in a cycle may run before one it imports has defined its exports). Tarjan's strongly connected components:
// each component of more than one module (or a module importing itself) is one problem, named by a shortest
// cycle through its first member.
function importCycles(nodes, edges) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let next = 0;
  function connect(node) {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of edges(node)) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node), low.get(target)));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node), index.get(target)));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || edges(node).includes(node)) components.push(component.sort());
    }
  }
  for (const node of nodes) if (!index.has(node)) connect(node);
  return components.map((component) => shortestCycle(component[0], new Set(component), edges));
}

/** The shortest path of imports from `start` back to itself within `members` (breadth first). */
function shortestCycle(start, members, edges) {
  const cameFrom = new Map();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const target of edges(queue[i])) {
      if (!members.has(target) || cameFrom.has(target)) continue;
      cameFrom.set(target, queue[i]);
      if (target === start) {
        const path = [start];
        for (let at = cameFrom.get(start); at !== start; at = cameFrom.get(at)) path.unshift(at);
        return [start, ...path];
      }
      queue.push(target);
    }
  }
  return [start, start];
}

const pageModules = files.filter((f) => f.startsWith(PAGE + sep));
const pageImports = (file) => (dependencies.get(file) ?? []).filter((target) => target.startsWith(PAGE + sep));
for (const cycle of importCycles(pageModules, pageImports)) {
  problem(cycle[0], `import cycle: ${cycle.map((f) => relative(PAGE, f)).join(' → ')} (docs/PAGE.md, "The modules")`);
}

const byName = new Map();
for (const file of files.filter((f) => f.startsWith(PAGE + sep))) {
  const name = basename(file);
  if (name === 'index.js') continue;
  byName.set(name, [...(byName.get(name) ?? []), relative(root, file)]);
}
for (const [name, paths] of byName) {
  if (paths.length > 1) problems.push(`${paths.join(', ')}: page modules share the file name ${name}`);
}

problems.sort();
for (const line of [...new Set(problems)]) console.error(line);
if (problems.length > 0) {
  console.error(`check-js: ${problems.length} problem(s) in ${files.length} modules`);
  process.exit(1);
}
console.log(
  `check-js: ${files.length} modules parse, resolve and link; page module names are unique, no import cycle; ` +
    `examples import ${FRONT_DOOR} only`,
);
