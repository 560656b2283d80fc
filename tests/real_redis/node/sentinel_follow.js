// Following the master through failovers, as Sentinel-aware client libraries
// do (Jedis' JedisSentinelPool, redis-py's Sentinel, Redisson) and as
// locksim's client does (sim/lock/master_follower.h): the client subscribes to
// every sentinel's `+switch-master` and moves to the announced master
// `follow_delay_ms` later; when a lock attempt fails it asks the next sentinel
// (SENTINEL get-master-addr-by-name, rotating) where the master is now and
// moves at once if that is news. Required by client.js when the driver's
// config has `follow` (realredis/replication.py).
//
// ioredis 4.28.5's own Sentinel mode asks the sentinels only when its
// connection breaks: a master that is partitioned away — the connection
// stays up and silent — would never be left. Hence this, in the libraries'
// way, and the lock code keeps talking to "the master" through one handle.
//
// Addresses the sentinels announce are real ports; `port_views` maps each to
// the port this client's zone reaches it by (a link the driver can cut).
'use strict';
const Redis = require('ioredis');

function followedMaster(config) {
  const f = config.follow;
  const view = (port) => f.port_views[String(port)] || port;
  const connect = (port) => {
    const redis = new Redis({ host: '127.0.0.1', port, enableOfflineQueue: true, maxRetriesPerRequest: 1,
      retryStrategy: () => 100, enableReadyCheck: false, commandTimeout: f.command_timeout_ms });
    redis.on('error', () => {});
    return redis;
  };
  let port = f.master;
  let current = connect(port);
  const moveTo = (realPort) => {
    const next = view(realPort);
    if (next === port) return;
    const old = current;
    port = next;
    current = connect(next);
    old.disconnect();
  };

  const others = f.sentinels.map((p) => connect(p));
  const subscribers = f.sentinels.map((p) => {
    const sub = new Redis({ host: '127.0.0.1', port: p, retryStrategy: () => 100, enableReadyCheck: false });
    sub.on('error', () => {});
    sub.subscribe('+switch-master').catch(() => {});
    sub.on('message', (channel, message) => {
      // "<name> <old ip> <old port> <new ip> <new port>"
      const parts = message.split(' ');
      if (parts[0] === f.master_name) setTimeout(() => moveTo(Number(parts[4])), f.follow_delay_ms);
    });
    return sub;
  });

  let nextSentinel = 0;
  async function lockAttemptFailed() {
    const sentinel = others[nextSentinel];
    nextSentinel = (nextSentinel + 1) % others.length;
    try {
      const [, masterPort] = await sentinel.sentinel('get-master-addr-by-name', f.master_name);
      moveTo(Number(masterPort));
    } catch (e) {
      // No answer: the next failure asks the next sentinel.
    }
  }
  function disconnect() {
    for (const c of [current, ...others, ...subscribers]) c.disconnect();
  }

  // The lock code's handle on "the master": every command goes to the current one.
  return new Proxy({}, {
    get(_, prop) {
      if (prop === 'lockAttemptFailed') return lockAttemptFailed;
      if (prop === 'disconnect') return disconnect;
      const value = current[prop];
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}

module.exports = { followedMaster };
