import { expect } from 'chai';
import {
  contractFields,
  contractMeta,
  INDEX_CONTRACT_VERSION,
  judgeContract,
  RELEASE,
} from '../../../indexContract/contract.js';

describe('indexContract/contract: what the API makes of the live index', () => {
  const fields = contractFields();

  it('records the contract, its oldest compatible reader and the release (package.json) in a new index', () => {
    expect(contractMeta()).to.deep.equal({
      contract_version: INDEX_CONTRACT_VERSION,
      contract_compatible_from: 1,
      release: RELEASE,
    });
    expect(RELEASE).to.match(/^\d+\.\d+\.\d+/);
    expect(fields).to.include.members(['slug', 'content_hash', 'technology_words', 'country_names']);
    expect(fields, 'objects without a type are not fields a query reads').to.not.include('fiscal');
  });

  it('serves an index of this contract fully', () => {
    const reading = judgeContract(contractMeta(), fields);
    expect(reading).to.deep.equal({
      status: 'ok',
      contractVersion: INDEX_CONTRACT_VERSION,
      release: RELEASE,
      missingFields: [],
      detail: null,
    });
  });

  it('recommends a reindex for an index from before versions, naming the fields it lacks and what they give', () => {
    const older = fields.filter(
      (field) => field !== 'technology_words' && field !== 'name_without_first_letter',
    );
    const reading = judgeContract({}, older);
    expect(reading.status).to.equal('reindex_recommended');
    expect(reading.contractVersion).to.equal(null);
    expect(reading.missingFields).to.deep.equal(['name_without_first_letter', 'technology_words']);
    expect(reading.detail).to.include('a release before 0.2.0');
    expect(reading.detail).to.include('technology_words (technology words in q)');
    expect(reading.detail).to.include('name_without_first_letter (typos in the first letter)');
  });

  it('recommends a reindex for an older contract even with every field (its hashes may be of another definition)', () => {
    const reading = judgeContract({ contract_version: 1, release: '0.1.0' }, fields);
    expect(reading.status).to.equal('reindex_recommended');
    expect(reading.missingFields).to.deep.equal([]);
    expect(reading.detail).to.include('release 0.1.0');
  });

  it('serves a newer compatible index, and refuses one that needs a newer API', () => {
    const newer = judgeContract(
      { contract_version: INDEX_CONTRACT_VERSION + 1, contract_compatible_from: 1, release: '9.0.0' },
      fields,
    );
    expect(newer.status).to.equal('ok');
    expect(newer.detail).to.include('newer than this API');
    const incompatible = judgeContract(
      {
        contract_version: INDEX_CONTRACT_VERSION + 1,
        contract_compatible_from: INDEX_CONTRACT_VERSION + 1,
        release: '9.0.0',
      },
      fields,
    );
    expect(incompatible.status).to.equal('incompatible');
    expect(incompatible.detail).to.include('upgrade the API, or roll the index back');
  });
});
