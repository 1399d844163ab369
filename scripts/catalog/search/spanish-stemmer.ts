/**
 * The Snowball stemmer for Spanish (snowballstem.org/algorithms/spanish/stemmer.html), run on
 * words already folded to lower case without accents. The published algorithm expects accented
 * input (it removes `-ación` but not `-acion`), so a reader who types "automatizacion" would not
 * find "automatización"; here every suffix list is folded the same way, so both spellings, and
 * "automatizar", reduce to `automatiz`.
 *
 * Folding merges some verb endings with common noun endings: `-ía`/`-ia` (provincia), `-ió`/`-io`
 * (servicio), `-erá`/`-era`, `-ís`/`-is`, `-áramos`/`-aramos` (preparamos)… Removing them would split singular from plural
 * ("servicio" → servic, "servicios" → servici), so the accented-only endings of step 2b are left
 * out (`ía ías ían íais íamos ió ís áis` and the future and conditional `ará aré erá eré irá iré
 * arán arás erán erás irán irás aría arías arían aríais aríamos` with their -er/-ir forms, and
 * `aréis eréis iréis ábamos áramos iéramos ásemos iésemos`), and a
 * final `-í` is not removed in step 3. Future and conditional verbs are rare in catalog prose.
 *
 * Pure and dependency-free, for Node and browsers alike. test/catalog/search.test.ts compares it
 * with @orama/stemmers' Spanish Snowball on every word of the content.
 */

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);
const isVowel = (c: string | undefined): boolean => c !== undefined && VOWELS.has(c);

/** Longest first, so the first match is the longest (Snowball's `among`). */
const byLength = (list: string): string[] => list.split(/\s+/).filter(Boolean).sort((a, b) => b.length - a.length);

const PRONOUNS = byLength('me se sela selo selas selos la le lo las les los nos');
const PRONOUN_VERB = byLength('iendo ando ar er ir');

const STEP1: [suffixes: string[], action: string][] = [
  [byLength('anza anzas ico ica icos icas ismo ismos able ables ible ibles ista istas oso osa osos osas amiento amientos imiento imientos'), 'delete'],
  [byLength('adora ador acion adoras adores aciones ante antes ancia ancias'), 'ic'],
  [byLength('logia logias'), 'log'],
  [byLength('ucion uciones'), 'u'],
  [byLength('encia encias'), 'ente'],
  [['amente'], 'amente'],
  [['mente'], 'mente'],
  [byLength('idad idades'), 'idad'],
  [byLength('iva ivo ivas ivos'), 'iva'],
];
const STEP1_ALL = STEP1.flatMap(([suffixes, action]) => suffixes.map((s) => [s, action] as const)).sort((a, b) => b[0].length - a[0].length);

const STEP2A = byLength('ya ye yan yen yeron yendo yo yas yes yais yamos');
const STEP2B_GU = new Set(['en', 'es', 'eis', 'emos']);
const STEP2B = byLength(
  `en es eis emos
   aran aras aremos eremos iremos aba ada ida ara
   iera ad ed id ase iese aste iste an aban aran ieran asen iesen aron ieron ado ido ando iendo ar er
   ir as abas adas idas aras ieras ases ieses abais arais ierais aseis ieseis asteis isteis
   ados idos amos imos`,
);
const STEP3 = byLength('os a o');

interface Regions {
  rv: number;
  r1: number;
  r2: number;
}

function regions(w: string): Regions {
  let rv = w.length;
  if (w.length >= 2) {
    if (!isVowel(w[1])) {
      for (let i = 2; i < w.length; i++) if (isVowel(w[i])) { rv = i + 1; break; }
    } else if (isVowel(w[0])) {
      for (let i = 2; i < w.length; i++) if (!isVowel(w[i])) { rv = i + 1; break; }
    } else rv = Math.min(3, w.length);
  }
  const after = (from: number): number => {
    for (let i = from + 1; i < w.length; i++) if (!isVowel(w[i]) && isVowel(w[i - 1])) return i + 1;
    return w.length;
  };
  const r1 = after(0);
  return { rv, r1, r2: after(r1) };
}

const endsIn = (w: string, suffixes: readonly string[], from = 0): string | undefined =>
  suffixes.find((s) => w.endsWith(s) && w.length - s.length >= from);

export function stemSpanish(word: string): string {
  if (word.length < 3) return word;
  let w = word;
  // Regions are positions from the start: cutting suffixes never moves them.
  const { rv, r1, r2 } = regions(w);

  // Step 0: an attached pronoun after a gerund or infinitive (haciéndola, comprarlo).
  const pronoun = endsIn(w, PRONOUNS);
  if (pronoun) {
    const stem = w.slice(0, -pronoun.length);
    const verb = endsIn(stem, PRONOUN_VERB, rv);
    if (verb || (stem.endsWith('uyendo') && stem.length - 5 >= rv)) w = stem;
  }

  // Step 1: standard suffixes, the longest wins whatever its region; its condition decides.
  let removed = false;
  const found = STEP1_ALL.find(([s]) => w.endsWith(s));
  if (found) {
    const [suffix, action] = found;
    const at = w.length - suffix.length;
    const cut = (n: number): void => {
      w = w.slice(0, w.length - n);
      removed = true;
    };
    const inR2 = (start: number): boolean => start >= r2;
    switch (action) {
      case 'delete':
        if (inR2(at)) cut(suffix.length);
        break;
      case 'ic':
        if (inR2(at)) {
          cut(suffix.length);
          if (w.endsWith('ic') && inR2(w.length - 2)) cut(2);
        }
        break;
      case 'log':
        if (inR2(at)) {
          w = `${w.slice(0, at)}log`;
          removed = true;
        }
        break;
      case 'u':
        if (inR2(at)) {
          w = `${w.slice(0, at)}u`;
          removed = true;
        }
        break;
      case 'ente':
        if (inR2(at)) {
          w = `${w.slice(0, at)}ente`;
          removed = true;
        }
        break;
      case 'amente':
        if (at >= r1) {
          cut(suffix.length);
          if (w.endsWith('iv') && inR2(w.length - 2)) {
            cut(2);
            if (w.endsWith('at') && inR2(w.length - 2)) cut(2);
          } else {
            const pre = ['os', 'ic', 'ad'].find((p) => w.endsWith(p));
            if (pre && inR2(w.length - 2)) cut(2);
          }
        }
        break;
      case 'mente':
        if (inR2(at)) {
          cut(suffix.length);
          const pre = ['ante', 'able', 'ible'].find((p) => w.endsWith(p));
          if (pre && inR2(w.length - pre.length)) cut(pre.length);
        }
        break;
      case 'idad':
        if (inR2(at)) {
          cut(suffix.length);
          const pre = ['abil', 'ic', 'iv'].find((p) => w.endsWith(p));
          if (pre && inR2(w.length - pre.length)) cut(pre.length);
        }
        break;
      case 'iva':
        if (inR2(at)) {
          cut(suffix.length);
          if (w.endsWith('at') && inR2(w.length - 2)) cut(2);
        }
        break;
    }
  }

  if (!removed) {
    // Step 2a: verb endings starting with y, after a u (the u need not be in RV).
    const y = endsIn(w, STEP2A, rv);
    if (y && w.slice(0, -y.length).endsWith('u')) w = w.slice(0, -y.length);
    else {
      // Step 2b: every other verb ending in RV.
      const v = endsIn(w, STEP2B, rv);
      if (v) {
        w = w.slice(0, -v.length);
        if (STEP2B_GU.has(v) && w.endsWith('gu')) w = w.slice(0, -1);
      }
    }
  }

  // Step 3: a residual vowel in RV.
  const residual = endsIn(w, STEP3, rv);
  if (residual) w = w.slice(0, -residual.length);
  else if (w.endsWith('e') && w.length - 1 >= rv) {
    w = w.slice(0, -1);
    if (w.endsWith('gu') && w.length - 1 >= rv) w = w.slice(0, -1);
  }
  return w;
}
