// Drives a Stratum server with @strapi/client: node client.mjs <base url>.
// Exits non-zero on the first failed check.
import assert from 'node:assert/strict';
import { strapi } from '@strapi/client';

const client = strapi({ baseURL: process.argv[2] + '/api' });
const articles = client.collection('articles');
const authors = client.collection('authors');
const categories = client.collection('categories');
const global = client.single('global');

let passed = 0;
async function check(name, fn) {
  try {
    await fn();
    passed++;
  } catch (err) {
    console.error(`FAIL ${name}:`, err?.response ? `${err.response.status} ${await err.response.text()}` : err);
    process.exit(1);
  }
}

let author, category, created;
await check('create related documents', async () => {
  author = (await authors.create({ name: 'Ada Lovelace', email: 'ada@example.com' })).data;
  category = (await categories.create({ name: 'Engineering' })).data;
  assert.match(author.documentId, /^[a-z][a-z0-9]{23}$/);
});

await check('create', async () => {
  for (const [i, views] of [[1, 10], [2, 500], [3, 900]]) {
    const res = await articles.create({
      title: `Article ${i}`, views, rating: i, author: author.documentId, category: category.documentId,
      seo: { metaTitle: `SEO ${i}` },
    });
    assert.equal(res.data.title, `Article ${i}`);
    assert.ok(res.data.publishedAt);
    created = res.data;
  }
  const draft = await articles.create({ title: 'Draft only' }, { status: 'draft' });
  assert.equal(draft.data.publishedAt, null);
});

await check('find with filters, sort, pagination and populate', async () => {
  const res = await articles.find({
    filters: { views: { $gt: 100 }, author: { name: { $containsi: 'ada' } } },
    sort: ['rating:desc'],
    pagination: { page: 1, pageSize: 1 },
    populate: { author: { fields: ['name'] }, category: true, seo: true },
  });
  assert.equal(res.data.length, 1);
  assert.equal(res.data[0].title, 'Article 3');
  assert.equal(res.data[0].author.name, 'Ada Lovelace');
  assert.equal(res.data[0].category.name, 'Engineering');
  assert.equal(res.data[0].seo.metaTitle, 'SEO 3');
  assert.deepEqual(res.meta.pagination, { page: 1, pageSize: 1, pageCount: 2, total: 2 });
});

await check('find with $or and fields', async () => {
  const res = await articles.find({
    filters: { $or: [{ title: { $eq: 'Article 1' } }, { views: { $gte: 900 } }] },
    fields: ['title'],
    sort: 'title:asc',
  });
  assert.deepEqual(res.data.map((a) => a.title), ['Article 1', 'Article 3']);
  assert.equal(res.data[0].views, undefined);
});

await check('drafts', async () => {
  const res = await articles.find({ status: 'draft' });
  assert.equal(res.data.length, 4);
});

await check('findOne', async () => {
  const res = await articles.findOne(created.documentId, { populate: ['author'] });
  assert.equal(res.data.documentId, created.documentId);
  assert.equal(res.data.author.documentId, author.documentId);
});

await check('update', async () => {
  const res = await articles.update(created.documentId, { summary: 'Now with a summary' });
  assert.equal(res.data.summary, 'Now with a summary');
  assert.equal(res.data.title, 'Article 3');
});

await check('validation errors reach the client', async () => {
  await assert.rejects(articles.create({ views: 'many' }), (err) => err.response?.status === 400);
});

await check('delete', async () => {
  await articles.delete(created.documentId);
  await assert.rejects(articles.findOne(created.documentId), (err) => err.response?.status === 404);
});

await check('single type', async () => {
  await assert.rejects(global.find(), (err) => err.response?.status === 404);
  const put = await global.update({ siteName: 'Stratum' });
  assert.equal(put.data.siteName, 'Stratum');
  assert.equal((await global.find()).data.siteName, 'Stratum');
  await global.delete();
  await assert.rejects(global.find(), (err) => err.response?.status === 404);
});

console.log(`${passed} passed, 0 failed`);
