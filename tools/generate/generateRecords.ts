// Deterministic fictional PPA records (record.md), produced one at a time so 1M records never sit in memory.
import type { PpaAttachment, PpaRecord, Version } from '../../indexContract/record.js';
import { foldText } from '../../indexContract/text/fold.js';
import { Random, cumulative } from './random.js';
import {
  COUNTRIES,
  DEVELOPERS,
  DOCUMENT_TYPES,
  NAME_MODIFIERS,
  OFFTAKER_TYPES,
  PROCUREMENT_METHODS,
  PROCUREMENT_PROGRAMMES,
  RISK_FEATURES,
  SHARED_PLACES,
  TARIFFS,
  TECHNOLOGIES,
  VERSION_SUMMARIES,
  type Country,
  type TechnologyProfile,
} from './vocabulary.js';

export interface GenerateOptions {
  seed: number;
  count: number;
}

const FIRST_YEAR = 1994;
const LAST_YEAR = 2025;
const DAY_S = 86_400;
const LATEST_TIMESTAMP_S = Date.UTC(2026, 9, 31) / 1000;
// The first records walk through every value set, so any run of >= 32 records covers all of them.
const COVERAGE_PRELUDE = LAST_YEAR - FIRST_YEAR + 1;

const technologyWeights = cumulative(TECHNOLOGIES.map((technology) => technology.weight));
const developerWeights = cumulative(DEVELOPERS.map((_, rank) => 1 / Math.pow(rank + 1, 1.1)));
const placesByCountry = new Map<string, string[]>(
  COUNTRIES.map((country) => [
    country.code,
    [
      ...country.places,
      ...Object.entries(SHARED_PLACES)
        .filter(([, codes]) => codes.includes(country.code))
        .map(([place]) => place),
    ],
  ]),
);
const sharedPlaceNames = Object.keys(SHARED_PLACES);

/** A URL-safe slug: folded, non-alphanumerics collapsed to single dashes. */
export function slugify(text: string): string {
  return foldText(text)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function stripMarksKeepCase(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '');
}

function isoDate(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 10);
}

function isoTimestamp(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** The same instant written with a +HH:00 offset, as some source systems do (the indexer normalises to Z). */
function offsetTimestamp(epochSeconds: number, offsetHours: number): string {
  const local = new Date((epochSeconds + offsetHours * 3600) * 1000).toISOString().slice(0, 19);
  return `${local}+${String(offsetHours).padStart(2, '0')}:00`;
}

function yearStart(year: number): number {
  return Date.UTC(year, 0, 1) / 1000;
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

interface RecentName {
  name: string;
  technology: TechnologyProfile;
}

export function* generateRecords({ seed, count }: GenerateOptions): Generator<PpaRecord> {
  const random = new Random(seed);
  const referenceSequences = new Map<string, number>();
  // A short memory of names, to make a few near-twins that differ only by case or accents.
  const recentNames: RecentName[] = [];

  for (let index = 0; index < count; index++) {
    const inPrelude = index < COVERAGE_PRELUDE;
    const country: Country | null = random.chance(0.04) && !inPrelude ? null : random.pick(COUNTRIES);
    const place = random.pick(country ? (placesByCountry.get(country.code) ?? []) : sharedPlaceNames);

    let technology: TechnologyProfile = inPrelude
      ? (TECHNOLOGIES[index % TECHNOLOGIES.length] as TechnologyProfile)
      : random.pickWeighted(TECHNOLOGIES, technologyWeights);
    let projectName: string;
    if (!inPrelude && recentNames.length > 0 && random.chance(0.03)) {
      const twin = random.pick(recentNames);
      technology = twin.technology;
      const withoutAccents = stripMarksKeepCase(twin.name);
      projectName =
        withoutAccents !== twin.name && random.chance(0.6)
          ? withoutAccents
          : random.chance(0.5)
            ? twin.name.toUpperCase()
            : twin.name.toLowerCase();
    } else {
      projectName = `${place} ${random.pick(technology.suffixes)}`;
      if (random.chance(0.15)) projectName = `${projectName} ${random.pick(NAME_MODIFIERS)}`;
      if (recentNames.length >= 256) recentNames.splice(random.int(0, 255), 1);
      recentNames.push({ name: projectName, technology });
    }

    const year: number | null = inPrelude
      ? FIRST_YEAR + index
      : random.chance(0.08)
        ? null
        : Math.min(
            LAST_YEAR,
            FIRST_YEAR + Math.floor((LAST_YEAR - FIRST_YEAR + 1) * Math.pow(random.next(), 0.8)),
          );

    const referenceKey = `${country?.code ?? 'XX'}-${technology.code}-${year ?? '0000'}`;
    const sequence = (referenceSequences.get(referenceKey) ?? 0) + 1;
    referenceSequences.set(referenceKey, sequence);
    // The record number keeps slugs unique without remembering earlier ones.
    const slug = `${slugify(projectName).slice(0, 100).replace(/-+$/, '')}-${index + 1}`;

    const developer = random.chance(0.1)
      ? `${random.pickWeighted(DEVELOPERS, developerWeights)} / ${random.pick(DEVELOPERS)}`
      : random.pickWeighted(DEVELOPERS, developerWeights);

    const region = country ? random.pick(country.regions) : null;
    const location = country
      ? random.chance(0.6)
        ? `${place}, ${region}, ${country.name}`
        : random.chance(0.5)
          ? `${place}, ${country.name}`
          : `${region}, ${country.name}`
      : random.chance(0.5)
        ? place
        : `${place} (country not disclosed)`;

    const capacity = round(
      Math.max(
        0.1,
        Math.min(
          technology.capacity.max,
          random.logNormal(technology.capacity.p10, technology.capacity.median, technology.capacity.p90),
        ),
      ),
      1,
    );

    const tariff = inPrelude ? TARIFFS[index % TARIFFS.length]! : pickTariff(random, technology);
    const riskFeatures = pickRiskFeatures(random, technology);
    if (inPrelude) {
      const forced = RISK_FEATURES[index % RISK_FEATURES.length]!;
      if (!riskFeatures.includes(forced)) riskFeatures.push(forced);
    }

    const published = inPrelude ? index % 10 !== 3 : random.chance(0.9);
    const active = published ? (inPrelude ? index % 10 !== 5 : random.chance(0.9)) : random.chance(0.8);

    const earliestPublication = yearStart(Math.max(year ?? 2008, 2008));
    const publishedAtS =
      earliestPublication +
      random.int(0, Math.max(DAY_S, LATEST_TIMESTAMP_S - 400 * DAY_S - earliestPublication));
    const updatedAtS = Math.min(LATEST_TIMESTAMP_S, publishedAtS + random.int(0, 400 * DAY_S));
    const writeTimestamp = (epochSeconds: number): string =>
      random.chance(0.03) ? offsetTimestamp(epochSeconds, random.int(1, 9)) : isoTimestamp(epochSeconds);
    const publishedAt = published || random.chance(0.1) ? writeTimestamp(publishedAtS) : null;

    const signedS = year === null || random.chance(0.1) ? null : yearStart(year) + random.int(0, 360) * DAY_S;
    const currencyDraw = random.next();
    const energyRate =
      technology.token === 'battery_storage' || random.chance(0.1)
        ? null
        : round(0.03 + random.next() * 0.22, 4);
    const hasCapacityCharge = tariff === 'capacity_and_energy' || tariff === 'availability_based';

    const riskIncludes = (feature: string): boolean => riskFeatures.includes(feature);
    const annualPayment =
      random.chance(0.4) || energyRate === null
        ? null
        : Math.round(capacity * 8760 * (0.2 + random.next() * 0.6) * energyRate * 1000);
    const guaranteed =
      (riskIncludes('government_guarantee') || riskIncludes('partial_risk_guarantee')) && random.chance(0.5)
        ? Math.round(capacity * random.int(50_000, 400_000))
        : null;
    const termination =
      riskIncludes('termination_payment') && random.chance(0.3)
        ? Math.round(capacity * random.int(200_000, 1_500_000))
        : null;

    const method = inPrelude
      ? PROCUREMENT_METHODS[index % PROCUREMENT_METHODS.length]!
      : random.chance(0.05)
        ? null
        : random.pick(PROCUREMENT_METHODS);
    const tendered = method === 'competitive_tender';
    const awardS = signedS === null ? null : signedS - random.int(20, 120) * DAY_S;
    const tenderEndS = awardS === null || !tendered ? null : awardS - random.int(15, 90) * DAY_S;
    const tenderStartS = tenderEndS === null ? null : tenderEndS - random.int(60, 300) * DAY_S;

    const record: PpaRecord = {
      slug,
      reference_code: `${referenceKey}-${String(sequence).padStart(3, '0')}`,
      project_name: projectName,
      developer,
      location,
      country_code: country?.code ?? null,
      technology: technology.token,
      tariff,
      capacity_mw: capacity,
      financial_close_year: year,
      risk_features: riskFeatures,
      published,
      active,
      published_at: publishedAt,
      updated_at: writeTimestamp(updatedAtS),
      offtaker: {
        name: random.chance(0.05) ? null : (country?.utility ?? 'Regional Power Authority'),
        type: random.chance(0.05) ? null : random.pick(OFFTAKER_TYPES),
      },
      contract: {
        signed_date: signedS === null ? null : isoDate(signedS),
        term_years: random.chance(0.05) ? null : random.int(10, 25),
        cod_date:
          signedS === null || random.chance(0.5) ? null : isoDate(signedS + random.int(365, 1100) * DAY_S),
        currency:
          currencyDraw < 0.03
            ? null
            : currencyDraw < 0.6
              ? 'USD'
              : currencyDraw < 0.85
                ? (country?.currency ?? 'USD')
                : 'EUR',
        energy_rate_per_kwh: energyRate,
        capacity_rate_per_kw_month:
          hasCapacityCharge && random.chance(0.8) ? round(5 + random.next() * 20, 2) : null,
      },
      fiscal: {
        annual_payment_obligation_usd: annualPayment,
        guaranteed_amount_usd: guaranteed,
        termination_payment_usd: termination,
      },
      procurement: {
        method,
        method_details: random.pick(PROCUREMENT_PROGRAMMES),
        number_of_bidders: tendered
          ? random.chance(0.1)
            ? null
            : random.int(2, 15)
          : method === null
            ? null
            : 1,
        tender_start: tenderStartS === null ? null : isoDate(tenderStartS),
        tender_end: tenderEndS === null ? null : isoDate(tenderEndS),
        award_date: awardS === null ? null : isoDate(awardS),
        procuring_entity: random.chance(0.1) ? null : (country?.utility ?? null),
      },
      versions: makeVersions(random, publishedAtS),
      documents: makeDocuments(random, slug, publishedAtS, country?.language ?? 'en'),
    };
    yield record;
  }
}

function pickTariff(random: Random, technology: TechnologyProfile): string {
  const draw = random.next();
  if (technology.fuelBased || technology.token === 'battery_storage') {
    return draw < 0.6 ? 'capacity_and_energy' : draw < 0.8 ? 'availability_based' : 'energy_only';
  }
  return draw < 0.5
    ? 'energy_only'
    : draw < 0.75
      ? 'feed_in_tariff'
      : draw < 0.9
        ? 'capacity_and_energy'
        : 'availability_based';
}

function pickRiskFeatures(random: Random, technology: TechnologyProfile): string[] {
  const features = random.sample(RISK_FEATURES, random.int(0, 5));
  // Fuel pass-through belongs to fuel-based plants; keep it rare elsewhere.
  return technology.fuelBased
    ? features
    : features.filter((feature) => feature !== 'fuel_pass_through' || random.chance(0.2));
}

function makeVersions(random: Random, publishedAtS: number): Version[] {
  const versionCount = random.int(0, 4);
  const versions: Version[] = [];
  let dateS = publishedAtS;
  for (let number = 1; number <= versionCount; number++) {
    versions.push({
      version: number,
      date: random.chance(0.05) ? null : isoDate(dateS),
      summary: number === 1 ? 'Initial publication' : random.pick(VERSION_SUMMARIES),
    });
    dateS += random.int(30, 500) * DAY_S;
  }
  return versions.reverse(); // newest first, as record.md lists them
}

function makeDocuments(
  random: Random,
  slug: string,
  publishedAtS: number,
  language: string,
): PpaAttachment[] {
  return random.sample(DOCUMENT_TYPES, random.int(0, 4)).map(([title, documentType]) => ({
    title,
    document_type: documentType,
    url: random.chance(0.05) ? null : `https://documents.example.org/ppas/${slug}/${documentType}.pdf`,
    published_on: random.chance(0.1) ? null : isoDate(publishedAtS - random.int(0, 700) * DAY_S),
    format: random.chance(0.1) ? null : 'application/pdf',
    language: random.chance(0.8) ? language : 'en',
  }));
}
