import { expect } from 'chai';
import { parseRedisUrl, RedisUrlError, redisUrlProblem } from '../../../settings/redisUrl.js';

describe('settings: REDIS_URL syntax', () => {
  it('leaves one server (redis://, rediss://) to ioredis as written', () => {
    expect(parseRedisUrl('redis://127.0.0.1:6379')).to.deep.equal({
      kind: 'standalone',
      url: 'redis://127.0.0.1:6379',
    });
    expect(parseRedisUrl('rediss://:pw@cache:6380/2')).to.deep.equal({
      kind: 'standalone',
      url: 'rediss://:pw@cache:6380/2',
    });
    expect(parseRedisUrl('redis://:a,b@cache')).to.deep.include({ kind: 'standalone' });
  });

  it('reads Cluster seed nodes, credentials and TLS', () => {
    expect(parseRedisUrl('redis+cluster://10.0.0.1:7000,10.0.0.2:7001, redis-3')).to.deep.equal({
      kind: 'cluster',
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: 'redis-3', port: 6379 },
      ],
      tls: false,
    });
    expect(parseRedisUrl('rediss+cluster://api:s%40cret@[::1]:7000/')).to.deep.equal({
      kind: 'cluster',
      nodes: [{ host: '::1', port: 7000 }],
      tls: true,
      username: 'api',
      password: 's@cret',
    });
    expect(parseRedisUrl('redis+cluster://:pw@a:7000'))
      .to.deep.include({ password: 'pw' })
      .and.not.have.property('username');
  });

  it('reads sentinels, the master name, the database and credentials', () => {
    expect(parseRedisUrl('redis+sentinel://s1:26379,s2,s3:26380/mymaster')).to.deep.equal({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
        { host: 's3', port: 26380 },
      ],
      masterName: 'mymaster',
      db: 0,
      tls: false,
    });
    expect(parseRedisUrl('rediss+sentinel://:pw@127.0.0.1:26379/ppa-limits/3')).to.deep.equal({
      kind: 'sentinel',
      sentinels: [{ host: '127.0.0.1', port: 26379 }],
      masterName: 'ppa-limits',
      db: 3,
      tls: true,
      password: 'pw',
    });
  });

  const refusals: Array<[string, RegExp]> = [
    ['127.0.0.1:6379', /scheme must be one of redis:\/\//],
    ['http://cache:6379', /scheme must be one of/],
    ['redis://', /not a valid URL|names no host/],
    ['redis://a:1,b:2', /one host only; several: redis\+cluster:\/\//],
    ['redis+cluster://', /at least one seed node/],
    ['redis+cluster://a:7000,,b:7001', /seed node 2 \(""\) is not a host name/],
    ['redis+cluster://a:70000', /seed node 1 \("a:70000"\) has no port from 1 to 65535/],
    ['redis+cluster://a:x', /has no port/],
    ['redis+cluster://a b:7000', /is not a host name/],
    ['redis+cluster://a:7000/1', /only database 0/],
    ['redis+cluster://a:7000?tls=1', /query strings/],
    ['redis+sentinel://s1:26379', /name the master/],
    ['redis+sentinel://s1:26379/', /name the master/],
    ['redis+sentinel://s1:26379/m/x', /only a database number/],
    ['redis+sentinel://s1:26379/m/1/2', /only a database number/],
    ['redis+sentinel:///m', /at least one sentinel/],
    ['redis+cluster://u:%zz@a:7000', /password is not valid percent-encoding/],
  ];
  for (const [value, message] of refusals) {
    it(`refuses ${JSON.stringify(value)}, saying why`, () => {
      expect(() => parseRedisUrl(value)).to.throw(RedisUrlError, message);
      expect(redisUrlProblem(value)).to.match(message);
    });
  }

  it('never repeats a password in a message', () => {
    for (const value of [
      'redis+cluster://u:hunter2@a:99999',
      'redis+sentinel://:hunter2@s1',
      'rediss+cluster://:hunter2@',
    ]) {
      expect(redisUrlProblem(value)).to.be.a('string').and.not.include('hunter2');
    }
  });

  it('has no problem with a good URL', () => {
    expect(redisUrlProblem('redis+cluster://a:7000')).to.equal(undefined);
  });
});
