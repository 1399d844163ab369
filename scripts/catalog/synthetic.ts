/**
 * A deterministic synthetic content folder for the build benchmark: valid front matter for every
 * kind, cross references that resolve, and Markdown bodies of 400–1,500 words with site links.
 * Same `n` and seed → the same bytes.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mapLimit } from './concurrency.ts';

const WORDS = (
  'empresa proceso cliente equipo datos sistema herramienta captación venta seguimiento presupuesto ' +
  'servicio técnico instalación mantenimiento orden trabajo factura correo llamada contacto oportunidad ' +
  'campaña anuncio formulario página conversión medición indicador informe panel objetivo resultado ' +
  'tiempo semana mes coste ahorro error retrabajo revisión decisión responsable tarea paso flujo regla ' +
  'automatización integración inteligencia artificial modelo documento extracción clasificación borrador ' +
  'seguridad copia acceso permiso contraseña identidad dispositivo red nube proveedor contrato licencia ' +
  'despacho asesoría taller concesionario inmobiliaria propietario inquilino incidencia turno parking ' +
  'el la los las un una de del en con para por sin sobre entre cuando donde como que más menos muy ' +
  'ordenar medir revisar decidir conectar automatizar documentar formar mejorar reducir evitar perder'
).split(/\s+/);

/** mulberry32: small, fast and good enough for filler text. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Plan {
  services: string[];
  sectors: string[];
  insights: string[];
  areas: string[];
  pages: string[];
}

function plan(n: number): Plan {
  const pages = ['inicio', 'contacto', 'metodo', 'aviso-legal'];
  const rest = Math.max(0, n - 1 - pages.length);
  const count = (share: number, min: number) => Math.max(min, Math.floor(rest * share));
  const services = count(0.1, 2);
  const sectors = count(0.05, 1);
  const areas = count(0.15, 1);
  const insights = Math.max(1, rest - services - sectors - areas);
  const names = (prefix: string, k: number) => Array.from({ length: k }, (_, i) => `${prefix}-${String(i + 1).padStart(5, '0')}`);
  return { services: names('servicio', services), sectors: names('sector', sectors), insights: names('articulo', insights), areas: names('zona', areas), pages };
}

export async function writeSyntheticContent(dir: string, n: number, seed = 1): Promise<{ files: number; bytes: number }> {
  const p = plan(n);
  const files: [string, string][] = [];
  const rand = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const some = (list: readonly string[], k: number) => [...new Set(Array.from({ length: k }, () => pick(list)))];
  const sentence = (k: number) => {
    const w = Array.from({ length: k }, () => pick(WORDS));
    return `${w.join(' ').replace(/^./, (c) => c.toUpperCase())}.`;
  };
  const links: string[] = [...p.services.map((s) => `/servicios/${s}/`), ...p.sectors.map((s) => `/sectores/${s}/`), '/contacto/'];
  const body = () => {
    const target = 400 + Math.floor(rand() * 1100);
    const out: string[] = [];
    let words = 0;
    while (words < target) {
      out.push(`## ${sentence(4).slice(0, -1)}`);
      for (let para = 0; para < 3 && words < target; para++) {
        const k = 40 + Math.floor(rand() * 60);
        out.push(`${sentence(k)} Más en [esta página](${pick(links)}).`);
        words += k + 3;
      }
      out.push(`- ${sentence(6)}\n- ${sentence(7)}\n- ${sentence(5)}`);
      words += 18;
    }
    return out.join('\n\n');
  };
  const q = (s: string) => JSON.stringify(s);
  const common = (slug: string, extra = '') =>
    `slug: ${q(slug)}\ntitle: ${q(sentence(5).slice(0, -1))}\nsummary: ${q(sentence(20))}\nupdated: "2026-0${1 + Math.floor(rand() * 9)}-1${Math.floor(rand() * 10)}"\n${extra}` +
    `faqs:\n  - question: ${q(`¿${sentence(8).slice(0, -1)}?`)}\n    answer: ${q(sentence(25))}\n  - question: ${q(`¿${sentence(9).slice(0, -1)}?`)}\n    answer: ${q(sentence(30))}\n`;
  const list = (name: string, items: readonly string[]) => `${name}:\n${items.map((i) => `  - ${q(i)}`).join('\n')}\n`;
  const steps = (name: string) => `${name}:\n${[1, 2, 3, 4].map(() => `  - title: ${q(sentence(3).slice(0, -1))}\n    description: ${q(sentence(15))}`).join('\n')}\n`;
  const doc = (front: string) => `---\n${front}---\n\n${body()}\n`;

  files.push(['organization.md', doc(
    `name: "Sintética Consultores"\ndescription: ${q(sentence(30))}\nfounded: "2019"\nupdated: "2026-01-01"\n` +
    `headquarters:\n  locality: "Valencia"\n  region: "Comunidad Valenciana"\n  country: "ES"\ncontact:\n  email: "hola@example.org"\n  contact_page: "/contacto/"\n` +
    `languages: ["es"]\nservice_lines:\n  - id: "captacion"\n    name: "Captación"\n    description: ${q(sentence(12))}\n  - id: "sistemas"\n    name: "Sistemas"\n    description: ${q(sentence(12))}\n` +
    `${list('competencies', [sentence(6), sentence(6)])}external_profiles:\n  - name: "GitHub"\n    url: "https://github.com/example"\n${list('coverage', p.areas.slice(0, 20))}`)]);
  p.pages.forEach((slug) => files.push([`pages/${slug}.md`, doc(
    common(slug, `path: ${q(slug === 'inicio' ? '/' : `/${slug}/`)}\ndescription: ${q(sentence(18))}\nindexable: ${slug !== 'aviso-legal'}\n`))]));
  p.services.forEach((slug, i) => files.push([`services/${slug}.md`, doc(common(slug,
    `service_line: ${i % 2 ? '"sistemas"' : '"captacion"'}\norder: ${Math.floor(i / 2) + 1}\naudience: ${q(sentence(14))}\n` +
    list('problems', [sentence(10), sentence(10), sentence(10), sentence(10)]) + list('outcomes', [sentence(10), sentence(10), sentence(10)]) +
    list('deliverables', [sentence(6), sentence(6)]) + steps('process_steps') + `duration: "4–6 semanas"\n` +
    list('related_services', some(p.services, 3)) + list('sectors', some(p.sectors, 2)) + list('keywords', [sentence(2), sentence(3)])))]));
  p.sectors.forEach((slug) => files.push([`sectors/${slug}.md`, doc(common(slug,
    list('typical_clients', [sentence(4), sentence(4)]) + steps('frictions') + steps('what_can_be_done') +
    list('related_services', some(p.services, 3)) + list('related_insights', some(p.insights, 3))))]));
  p.insights.forEach((slug) => files.push([`insights/${slug}.md`, doc(common(slug,
    `published: "2026-0${1 + Math.floor(rand() * 9)}-0${1 + Math.floor(rand() * 9)}"\nquestion: ${q(`¿${sentence(10).slice(0, -1)}?`)}\nanswer: ${q(sentence(40))}\nauthor: "Equipo de Sistemas"\n` +
    list('key_points', [sentence(10), sentence(10), sentence(10)]) + list('tags', [pick(WORDS), pick(WORDS)]) +
    list('related_services', some(p.services, 2)) + list('related_sectors', some(p.sectors, 2))))]));
  p.areas.forEach((slug) => files.push([`areas/${slug}.md`, doc(common(slug,
    `name: ${q(sentence(2).slice(0, -1))}\narea_type: "ciudad"\nregion: "España"\nmodality: "mixto"\n` +
    list('localities', [sentence(1).slice(0, -1), sentence(1).slice(0, -1)]) + list('services_available', some(p.services, 4))))]));

  for (const sub of ['pages', 'services', 'sectors', 'insights', 'areas']) await mkdir(path.join(dir, sub), { recursive: true });
  let bytes = 0;
  await mapLimit(files, 64, async ([rel, text]) => {
    bytes += Buffer.byteLength(text);
    await writeFile(path.join(dir, rel), text);
  });
  return { files: files.length, bytes };
}
