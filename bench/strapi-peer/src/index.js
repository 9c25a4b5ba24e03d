'use strict';

// Public-role permissions granted at every boot (idempotent).
const PUBLIC_ACTIONS = [
  'api::article.article.find',
  'api::article.article.findOne',
  'api::article.article.create',
  'api::article.article.update',
  'api::article.article.delete',
  'api::category.category.find',
  'api::category.category.findOne',
  'api::tag.tag.find',
  'api::tag.tag.findOne',
  'api::global.global.find',
  'api::global.global.update',
  'api::global.global.delete',
];

const CATEGORY_NAMES = [
  'Technology', 'Science', 'Health', 'Business', 'Travel',
  'Food', 'Sports', 'Culture', 'Politics', 'Education',
];
const TAG_WORDS = [
  'alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet',
  'kilo', 'lima', 'mike', 'november', 'oscar', 'papa', 'quebec', 'romeo', 'sierra', 'tango',
  'uniform', 'victor', 'whiskey', 'xray', 'yankee', 'zulu', 'red', 'green', 'blue', 'black',
];
const WORDS = [
  'lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit', 'sed', 'do',
  'eiusmod', 'tempor', 'incididunt', 'ut', 'labore', 'et', 'dolore', 'magna', 'aliqua', 'enim',
  'minim', 'veniam', 'quis', 'nostrud', 'exercitation', 'ullamco', 'laboris', 'nisi', 'aliquip', 'commodo',
];

// Deterministic per-article pseudo random numbers (so every seeded database holds the same content,
// apart from documentId / timestamps, which Strapi generates).
function rng(seed) {
  let s = (seed * 2654435761) >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}
function sentence(r, n) {
  const out = [];
  for (let i = 0; i < n; i += 1) out.push(WORDS[Math.floor(r() * WORDS.length)]);
  const s = out.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}

async function grantPublicPermissions(strapi) {
  const role = await strapi.db
    .query('plugin::users-permissions.role')
    .findOne({ where: { type: 'public' } });
  if (!role) throw new Error('users-permissions public role not found');
  const existing = await strapi.db
    .query('plugin::users-permissions.permission')
    .findMany({ where: { role: role.id } });
  const have = new Set(existing.map((p) => p.action));
  for (const action of PUBLIC_ACTIONS) {
    if (!have.has(action)) {
      await strapi.db
        .query('plugin::users-permissions.permission')
        .create({ data: { action, role: role.id } });
    }
  }
}

function articleData(n, categories, tags) {
  const r = rng(n);
  const title = `Article ${n}: ${sentence(r, 4).slice(0, -1)}`;
  const day = new Date(Date.UTC(2020, 0, 1) + (n % 1500) * 86400000);
  const tagIds = new Set();
  while (tagIds.size < 3) tagIds.add(tags[Math.floor(r() * tags.length)].documentId);
  return {
    title,
    slug: `article-${n}`,
    body: [
      { type: 'heading', level: 2, children: [{ type: 'text', text: `Heading of article ${n}` }] },
      { type: 'paragraph', children: [{ type: 'text', text: sentence(r, 30) }] },
      { type: 'paragraph', children: [{ type: 'text', text: sentence(r, 20), bold: true }] },
    ],
    views: Math.floor(r() * 1000),
    rating: Math.round(r() * 50) / 10,
    featured: n % 10 === 0,
    publishedDate: day.toISOString().slice(0, 10),
    category: categories[n % categories.length].documentId,
    tags: [...tagIds],
    seo: { metaTitle: `SEO ${n}`, metaDescription: sentence(r, 12) },
    blocks: [
      { __component: 'shared.quote', title: `Quote ${n}`, body: sentence(r, 10) },
      { __component: 'shared.rich-text', body: `## Section ${n}\n\n${sentence(r, 25)}` },
    ],
  };
}

async function seed(strapi) {
  const target = parseInt(process.env.SEED_ARTICLES || '10000', 10);
  const concurrency = parseInt(process.env.SEED_CONCURRENCY || '8', 10);
  const log = (m) => strapi.log.info(`[seed] ${m}`);

  const catSvc = strapi.documents('api::category.category');
  if ((await catSvc.count()) === 0) {
    for (const name of CATEGORY_NAMES) {
      await catSvc.create({ data: { name, slug: name.toLowerCase() } });
    }
  }
  const tagSvc = strapi.documents('api::tag.tag');
  if ((await tagSvc.count()) === 0) {
    for (const name of TAG_WORDS) await tagSvc.create({ data: { name } });
  }
  const globalSvc = strapi.documents('api::global.global');
  if (!(await globalSvc.findFirst())) {
    await globalSvc.create({
      data: { siteName: 'Peer Blog', description: 'A Strapi 5 peer used for measurements.' },
    });
  }

  const categories = await catSvc.findMany({ sort: 'id:asc', limit: 100 });
  const tags = await tagSvc.findMany({ sort: 'id:asc', limit: 100 });
  const artSvc = strapi.documents('api::article.article');
  const existing = await artSvc.count({ status: 'draft' }); // every document has a draft version
  if (existing >= target) return;
  log(`seeding articles ${existing + 1}..${target} (concurrency ${concurrency})`);
  const t0 = Date.now();
  let next = existing + 1;
  let done = 0;
  const worker = async () => {
    while (next <= target) {
      const n = next;
      next += 1;
      // every 100th article stays a draft (never published)
      const status = n % 100 === 0 ? 'draft' : 'published';
      await artSvc.create({ data: articleData(n, categories, tags), status });
      done += 1;
      if (done % 500 === 0) log(`${existing + done}/${target} (${Math.round((done * 1000) / (Date.now() - t0))}/s)`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  log(`done: ${done} articles in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
}

// The load test's API token (bench/peer.sh): a full-access token whose key
// is PEER_TOKEN, stored as Strapi stores every token (HMAC-SHA512 with
// API_TOKEN_SALT), so the same bearer works here and, after the import, in
// Stratum.
async function ensureToken(strapi, key) {
  const salt = strapi.config.get('admin.apiToken.salt');
  const accessKey = require('crypto').createHmac('sha512', salt).update(key).digest('hex');
  const q = strapi.db.query('admin::api-token');
  if (await q.findOne({ where: { accessKey } })) return;
  await q.create({
    data: { name: `bench ${Date.now()}`, description: 'bench/peer.sh', type: 'full-access', accessKey, lifespan: null },
  });
}

module.exports = {
  register(/* { strapi } */) {},

  async bootstrap({ strapi }) {
    await grantPublicPermissions(strapi);
    if (process.env.PEER_TOKEN) await ensureToken(strapi, process.env.PEER_TOKEN);
    if (process.env.SEED !== 'false') await seed(strapi);
  },
};
