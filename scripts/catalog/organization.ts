/**
 * organization.json, with the same facts as schema.org JSON-LD embedded under `json_ld` (one
 * file to fetch; index.json says where it is).
 */
import type { Organization } from '../../schemas/generated/types/catalog/organization.ts';
import { addressesOf, sourceOf, type Catalog } from './model.ts';
import { apiUrl, pageUrl } from './site.ts';

/** schema.org types for the content's area kinds. */
const PLACE_TYPE: Record<string, string> = {
  ciudad: 'City',
  provincia: 'AdministrativeArea',
  comunidad_autonoma: 'AdministrativeArea',
  pais: 'Country',
  remoto: 'Place',
};

export function organization(c: Catalog): Organization {
  const fm = c.organization.fm;
  const home = pageUrl(c.site, '/');
  const contactUrl = pageUrl(c.site, fm.contact.contact_page);
  const coverage = fm.coverage.map((slug) => {
    const a = c.area(slug);
    return { slug, name: a.fm.name, area_type: a.fm.area_type, modality: a.fm.modality, url: addressesOf(c.site, a).url, json_url: apiUrl(c.site, 'areas.json') };
  });
  const serviceLines = fm.service_lines.map((l) => ({
    id: l.id, name: l.name, description: l.description,
    services: c.services.filter((s) => s.fm.service_line === l.id).map((s) => c.link('service', s.fm.slug)),
  }));
  return {
    name: fm.name,
    ...(fm.legal_form ? { legal_form: fm.legal_form } : {}),
    description: fm.description,
    founded: fm.founded,
    // Rebuilt field by field: YAML keeps the editor's key order, the output has a fixed one.
    headquarters: { locality: fm.headquarters.locality, region: fm.headquarters.region, country: fm.headquarters.country },
    contact: {
      email: fm.contact.email,
      ...(fm.contact.telephone ? { telephone: fm.contact.telephone } : {}),
      contact_page: fm.contact.contact_page,
      contact_url: contactUrl,
    },
    languages: fm.languages,
    service_lines: serviceLines,
    competencies: fm.competencies,
    external_profiles: fm.external_profiles.map((p) => ({ name: p.name, url: p.url })),
    coverage,
    url: home,
    json_url: apiUrl(c.site, 'organization.json'),
    body_markdown: c.organization.body,
    json_ld: {
      '@context': 'https://schema.org',
      '@type': 'Organization',
      '@id': `${home}#organization`,
      name: fm.name,
      url: home,
      description: fm.description,
      foundingDate: fm.founded,
      email: fm.contact.email,
      ...(fm.contact.telephone ? { telephone: fm.contact.telephone } : {}),
      address: {
        '@type': 'PostalAddress',
        addressLocality: fm.headquarters.locality,
        addressRegion: fm.headquarters.region,
        addressCountry: fm.headquarters.country,
      },
      contactPoint: {
        '@type': 'ContactPoint',
        contactType: 'customer service',
        email: fm.contact.email,
        url: contactUrl,
        availableLanguage: fm.languages,
      },
      areaServed: coverage.map((a) => ({ '@type': PLACE_TYPE[a.area_type] ?? 'Place', name: a.name, url: a.url })),
      knowsAbout: fm.competencies,
      knowsLanguage: fm.languages,
      sameAs: fm.external_profiles.map((p) => p.url),
      hasOfferCatalog: {
        '@type': 'OfferCatalog',
        name: 'Servicios',
        itemListElement: serviceLines.map((l) => ({
          '@type': 'OfferCatalog',
          name: l.name,
          itemListElement: l.services.map((s) => ({ '@type': 'Offer', itemOffered: { '@type': 'Service', name: s.title, url: s.url } })),
        })),
      },
    },
    updated: fm.updated,
    source: sourceOf(c.organization),
  };
}
