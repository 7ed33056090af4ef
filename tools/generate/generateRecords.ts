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

/** What the generator remembers from one record to the next. */
interface GeneratorMemory {
  /** The last sequence number of each reference code's prefix. */
  referenceSequences: Map<string, number>;
  /** A short memory of names, to make a few near-twins that differ only by case or accents. */
  recentNames: RecentName[];
}

export function* generateRecords({ seed, count }: GenerateOptions): Generator<PpaRecord> {
  const random = new Random(seed);
  const memory: GeneratorMemory = { referenceSequences: new Map(), recentNames: [] };
  for (let index = 0; index < count; index++) yield generateRecord(random, index, memory);
}

// Every part below draws from `random` in the order it is called: the order of the calls is the records' identity
// for a seed (data/sample-ppas.ndjson), so a new draw goes after the others.
function generateRecord(random: Random, index: number, memory: GeneratorMemory): PpaRecord {
  const inPrelude = index < COVERAGE_PRELUDE;
  const { country, place } = pickPlace(random, inPrelude);
  const { technology, projectName } = pickProjectName(random, index, inPrelude, place, memory.recentNames);
  const year = pickYear(random, index, inPrelude);
  const referenceKey = `${country?.code ?? 'XX'}-${technology.code}-${year ?? '0000'}`;
  const sequence = (memory.referenceSequences.get(referenceKey) ?? 0) + 1;
  memory.referenceSequences.set(referenceKey, sequence);
  // The record number keeps slugs unique without remembering earlier ones.
  const slug = `${slugify(projectName).slice(0, 100).replace(/-+$/, '')}-${index + 1}`;
  const developer = random.chance(0.1)
    ? `${random.pickWeighted(DEVELOPERS, developerWeights)} / ${random.pick(DEVELOPERS)}`
    : random.pickWeighted(DEVELOPERS, developerWeights);
  const location = describeLocation(random, country, place);
  const capacity = pickCapacity(random, technology);
  const tariff = inPrelude ? TARIFFS[index % TARIFFS.length]! : pickTariff(random, technology);
  const riskFeatures = pickRiskFeatures(random, technology);
  if (inPrelude) {
    const forced = RISK_FEATURES[index % RISK_FEATURES.length]!;
    if (!riskFeatures.includes(forced)) riskFeatures.push(forced);
  }
  const published = inPrelude ? index % 10 !== 3 : random.chance(0.9);
  const active = published ? (inPrelude ? index % 10 !== 5 : random.chance(0.9)) : random.chance(0.8);
  const times = pickPublicationTimes(random, year, published);
  const terms = pickContractTerms(random, technology, tariff, year);
  const fiscal = pickFiscal(random, capacity, terms.energyRate, riskFeatures);
  const tender = pickProcurementDates(random, index, inPrelude, terms.signedS);
  return withRedFlagCases(index, {
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
    published_at: times.publishedAt,
    updated_at: times.writeTimestamp(times.updatedAtS),
    offtaker: {
      name: random.chance(0.05) ? null : (country?.utility ?? 'Regional Power Authority'),
      type: random.chance(0.05) ? null : random.pick(OFFTAKER_TYPES),
    },
    contract: contractOf(random, terms, country),
    fiscal,
    procurement: procurementOf(random, tender, country),
    versions: makeVersions(random, times.publishedAtS),
    documents: makeDocuments(random, slug, times.publishedAtS, country?.language ?? 'en'),
  });
}

/** `date` (YYYY-MM-DD) moved by `days`. */
const shiftDate = (date: string, days: number): string =>
  isoDate(Date.parse(`${date}T00:00:00Z`) / 1000 + days * DAY_S);

/**
 * Every so many records sit on a red flag (docs/flags.md) that the draws above rarely or never give: a single
 * bid, a short tender, an award before the tender closed, a contract signed before its award, a tariff far above
 * its peers. Chosen by the record's position, without a draw, so every other value of the sample stays as drawn.
 */
function withRedFlagCases(index: number, record: PpaRecord): PpaRecord {
  const procurement = record.procurement!;
  const contract = record.contract!;
  const competitive = procurement.method === 'competitive_tender';
  if (competitive && procurement.number_of_bidders != null && index % 11 === 5)
    procurement.number_of_bidders = 1;
  if (contract.signed_date && procurement.award_date && index % 19 === 11) {
    // Signed before the award: the award (and the tender before it) moved after the signature.
    const moved = shiftDate(contract.signed_date, 5 + (index % 30));
    const days = (Date.parse(moved) - Date.parse(procurement.award_date)) / (DAY_S * 1000);
    procurement.award_date = moved;
    if (procurement.tender_end) procurement.tender_end = shiftDate(procurement.tender_end, days);
    if (procurement.tender_start) procurement.tender_start = shiftDate(procurement.tender_start, days);
  }
  if (procurement.award_date && procurement.tender_end && index % 17 === 9)
    procurement.tender_end = shiftDate(procurement.award_date, 3 + (index % 20));
  if (competitive && procurement.tender_end && index % 13 === 6)
    procurement.tender_start = shiftDate(procurement.tender_end, -(10 + (index % 19)));
  if (contract.energy_rate_per_kwh != null && index % 23 === 14)
    contract.energy_rate_per_kwh = round(contract.energy_rate_per_kwh * 3 + 0.5, 4);
  return record;
}

/** A country (none for some records, never in the prelude) and a place in it, or a place several countries share. */
function pickPlace(random: Random, inPrelude: boolean): { country: Country | null; place: string } {
  const country: Country | null = random.chance(0.04) && !inPrelude ? null : random.pick(COUNTRIES);
  const place = random.pick(country ? (placesByCountry.get(country.code) ?? []) : sharedPlaceNames);
  return { country, place };
}

/** The technology and the project's name: a place and a suffix, or now and then a recent name's near-twin. */
function pickProjectName(
  random: Random,
  index: number,
  inPrelude: boolean,
  place: string,
  recentNames: RecentName[],
): { technology: TechnologyProfile; projectName: string } {
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
  return { technology, projectName };
}

/** The financial close year: each year in turn in the prelude, else skewed to recent years, sometimes unknown. */
function pickYear(random: Random, index: number, inPrelude: boolean): number | null {
  return inPrelude
    ? FIRST_YEAR + index
    : random.chance(0.08)
      ? null
      : Math.min(
          LAST_YEAR,
          FIRST_YEAR + Math.floor((LAST_YEAR - FIRST_YEAR + 1) * Math.pow(random.next(), 0.8)),
        );
}

function describeLocation(random: Random, country: Country | null, place: string): string {
  const region = country ? random.pick(country.regions) : null;
  return country
    ? random.chance(0.6)
      ? `${place}, ${region}, ${country.name}`
      : random.chance(0.5)
        ? `${place}, ${country.name}`
        : `${region}, ${country.name}`
    : random.chance(0.5)
      ? place
      : `${place} (country not disclosed)`;
}

/** MW, log-normal around the technology's median, within its bounds. */
function pickCapacity(random: Random, technology: TechnologyProfile): number {
  return round(
    Math.max(
      0.1,
      Math.min(
        technology.capacity.max,
        random.logNormal(technology.capacity.p10, technology.capacity.median, technology.capacity.p90),
      ),
    ),
    1,
  );
}

/** When the record was published and updated (epoch s), and the timestamps as a source writes them. */
function pickPublicationTimes(random: Random, year: number | null, published: boolean) {
  const earliestPublication = yearStart(Math.max(year ?? 2008, 2008));
  const publishedAtS =
    earliestPublication +
    random.int(0, Math.max(DAY_S, LATEST_TIMESTAMP_S - 400 * DAY_S - earliestPublication));
  const updatedAtS = Math.min(LATEST_TIMESTAMP_S, publishedAtS + random.int(0, 400 * DAY_S));
  const writeTimestamp = (epochSeconds: number): string =>
    random.chance(0.03) ? offsetTimestamp(epochSeconds, random.int(1, 9)) : isoTimestamp(epochSeconds);
  const publishedAt = published || random.chance(0.1) ? writeTimestamp(publishedAtS) : null;
  return { publishedAtS, updatedAtS, publishedAt, writeTimestamp };
}

/** The contract's signature (epoch s), the draw its currency is read from, its energy rate and capacity charge. */
interface ContractTerms {
  signedS: number | null;
  currencyDraw: number;
  energyRate: number | null;
  hasCapacityCharge: boolean;
}

function pickContractTerms(
  random: Random,
  technology: TechnologyProfile,
  tariff: string,
  year: number | null,
): ContractTerms {
  const signedS = year === null || random.chance(0.1) ? null : yearStart(year) + random.int(0, 360) * DAY_S;
  const currencyDraw = random.next();
  const energyRate =
    technology.token === 'battery_storage' || random.chance(0.1)
      ? null
      : round(0.03 + random.next() * 0.22, 4);
  const hasCapacityCharge = tariff === 'capacity_and_energy' || tariff === 'availability_based';
  return { signedS, currencyDraw, energyRate, hasCapacityCharge };
}

function pickFiscal(
  random: Random,
  capacity: number,
  energyRate: number | null,
  riskFeatures: string[],
): PpaRecord['fiscal'] {
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
  return {
    annual_payment_obligation_usd: annualPayment,
    guaranteed_amount_usd: guaranteed,
    termination_payment_usd: termination,
  };
}

/** The procurement method and, for a tender, its dates before the award (epoch s). */
interface ProcurementDates {
  method: string | null;
  tendered: boolean;
  awardS: number | null;
  tenderEndS: number | null;
  tenderStartS: number | null;
}

function pickProcurementDates(
  random: Random,
  index: number,
  inPrelude: boolean,
  signedS: number | null,
): ProcurementDates {
  const method = inPrelude
    ? PROCUREMENT_METHODS[index % PROCUREMENT_METHODS.length]!
    : random.chance(0.05)
      ? null
      : random.pick(PROCUREMENT_METHODS);
  const tendered = method === 'competitive_tender';
  const awardS = signedS === null ? null : signedS - random.int(20, 120) * DAY_S;
  const tenderEndS = awardS === null || !tendered ? null : awardS - random.int(15, 90) * DAY_S;
  const tenderStartS = tenderEndS === null ? null : tenderEndS - random.int(60, 300) * DAY_S;
  return { method, tendered, awardS, tenderEndS, tenderStartS };
}

function contractOf(random: Random, terms: ContractTerms, country: Country | null): PpaRecord['contract'] {
  const { signedS, currencyDraw } = terms;
  return {
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
    energy_rate_per_kwh: terms.energyRate,
    capacity_rate_per_kw_month:
      terms.hasCapacityCharge && random.chance(0.8) ? round(5 + random.next() * 20, 2) : null,
  };
}

function procurementOf(
  random: Random,
  { method, tendered, awardS, tenderEndS, tenderStartS }: ProcurementDates,
  country: Country | null,
): PpaRecord['procurement'] {
  return {
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
  };
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
