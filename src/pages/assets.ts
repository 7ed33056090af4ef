// The files behind the two pages (the API reference and the explorer): read once at start-up from public/ and
// from the npm packages that ship them (Swagger UI, Chart.js), so nothing is fetched from another origin. Each
// asset has a content hash: pages link it as /assets/<name>?v=<hash>, which lets a browser keep it for a year.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { projectFile } from '../../indexContract/projectFile.js';
import { fileRepresentation, type Representation } from '../wire/representation.js';
import { explorerDescription } from './explorerDescription.js';

/** A file as it is sent (its compressed forms made once, when first asked for), and where pages link it. */
export interface Asset extends Representation {
  /** Path with the content version, as pages link it. */
  url: string;
  /**
   * Loaded by another module's relative import, so without its version in the URL: revalidated on every load (an
   * ETag, a 304), since a module kept while the one importing it changed would not fit it.
   */
  imported?: boolean;
}

const require = createRequire(import.meta.url);
/** A file of an installed package, found from the package's entry point (exports may hide package.json). */
const packageFile = (name: string, entryDirToFile: string) =>
  join(dirname(require.resolve(name)), entryDirToFile);

/** Served name → where the file comes from. Only these names are served: no path from a client reaches the disk. */
/**
 * The explorer's native ES modules: no build step (the browser loads each module, and they import each other by
 * relative URL: /assets/explore-state.js), so what is in public/ is what runs, and a new module is served as such.
 */
function explorerModules(): string[] {
  return readdirSync(projectFile('public')).filter((name) => /^explore(?:-[a-z]+)?\.js$/.test(name));
}

function assetSources(): Record<string, { path: string | URL; type: string; imported?: boolean }> {
  const publicFile = (name: string) => projectFile(`public/${name}`);

  const js = 'text/javascript; charset=utf-8';
  const css = 'text/css; charset=utf-8';
  return {
    'swagger-ui-bundle.js': { path: packageFile('swagger-ui-dist', 'swagger-ui-bundle.js'), type: js },
    'swagger-ui.css': { path: packageFile('swagger-ui-dist', 'swagger-ui.css'), type: css },
    'chart.umd.min.js': { path: packageFile('chart.js', 'chart.umd.min.js'), type: js },
    'docs.js': { path: publicFile('docs.js'), type: js },
    // The explorer's ES modules (explore.js and the explore-*.js it imports), each served as it is in public/.
    ...Object.fromEntries(
      explorerModules().map((name) => [
        name,
        // explore.js is linked by the page with its version; the modules it imports are not.
        { path: publicFile(name), type: js, imported: name !== 'explore.js' },
      ]),
    ),
    'explore.css': { path: publicFile('explore.css'), type: css },
    'favicon.svg': { path: publicFile('favicon.svg'), type: 'image/svg+xml' },
  };
}

function asset(name: string, body: Buffer, type: string): Asset {
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 16);
  return { ...fileRepresentation(body, type, `"${hash}"`), url: `/assets/${name}?v=${hash}` };
}

/** The explorer's description of the API (explorerDescription.ts), linked from explore.html. */
export const EXPLORER_DESCRIPTION = 'explorer.json';

export interface PageSet {
  assets: ReadonlyMap<string, Asset>;
  /** The HTML pages, with their asset links resolved to versioned URLs. */
  docsPage: Asset;
  explorePage: Asset;
}

/**
 * Every asset and both pages, read now (the composition root, src/app.ts, reads them once for the apps a process
 * builds); throws at start-up, not on a request, when a file is missing.
 */
export function loadPages(): PageSet {
  const assets = new Map<string, Asset>();
  for (const [name, source] of Object.entries(assetSources())) {
    const made = asset(name, readFileSync(source.path), source.type);
    assets.set(name, source.imported ? { ...made, imported: true } : made);
  }
  // What the explorer knows of the API, made from the declarations at start-up rather than copied into public/.
  const description = Buffer.from(JSON.stringify(explorerDescription()));
  assets.set(EXPLORER_DESCRIPTION, asset(EXPLORER_DESCRIPTION, description, 'application/json'));
  const page = (file: string) => {
    // {{asset:name}} in a page becomes that asset's versioned URL.
    const html = readFileSync(projectFile(`public/${file}`), 'utf8').replace(
      /\{\{asset:([\w.-]+)\}\}/g,
      (_, name: string) => {
        const found = assets.get(name);
        if (!found) throw new Error(`public/${file} links an unknown asset: ${name}`);
        return found.url;
      },
    );
    return asset(file, Buffer.from(html), 'text/html; charset=utf-8');
  };
  return { assets, docsPage: page('docs.html'), explorePage: page('explore.html') };
}
