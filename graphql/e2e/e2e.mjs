// End-to-end check of Stratum's GraphQL endpoint with the reference
// implementation of GraphQL (graphql-js): the client schema is built from
// Stratum's introspection, then every operation of the spec is validated
// against it and run on the server.
//
// usage: node e2e.mjs http://127.0.0.1:PORT/graphql
import {
  buildClientSchema, getIntrospectionQuery, parse, validate, printSchema, assertValidSchema,
} from "graphql";

const endpoint = process.argv[2];
if (!endpoint) {
  console.error("usage: node e2e.mjs <endpoint>");
  process.exit(2);
}

let failures = 0;
let passed = 0;
const fail = (what, detail) => {
  failures++;
  console.error(`FAIL ${what}: ${typeof detail === "string" ? detail : JSON.stringify(detail)}`);
};
const check = (what, cond, detail) => (cond ? passed++ : fail(what, detail));

let token = "";
async function post(query, variables) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(endpoint, { method: "POST", headers, body: JSON.stringify({ query, variables }) });
  return { status: res.status, body: await res.json() };
}

// 1. The client schema, from introspection.
const intro = await post(getIntrospectionQuery());
if (intro.status !== 200 || intro.body.errors) {
  fail("introspection", intro.body);
  process.exit(1);
}
const schema = buildClientSchema(intro.body.data);
assertValidSchema(schema);
const sdl = printSchema(schema);
check("schema has types", sdl.includes("type ArticleEntityResponseCollection"), "ArticleEntityResponseCollection missing");
for (const t of ["Article", "ArticleEntity", "ArticleEntityResponse", "ArticleEntityResponseCollection",
  "ArticleRelationResponseCollection", "ArticleInput", "ArticleFiltersInput", "ResponseCollectionMeta", "Pagination",
  "PaginationArg", "PublicationState", "StringFilterInput", "BooleanFilterInput", "DateTimeFilterInput", "JSON",
  "DateTime", "ComponentSharedSeo", "ArticleBlocksDynamicZone"]) {
  check(`type ${t}`, schema.getType(t), `type ${t} missing`);
}
const articles = schema.getQueryType().getFields().articles;
check("articles args", ["filters", "pagination", "sort", "publicationState"].every((a) => articles.args.some((x) => x.name === a)),
  articles.args.map((a) => a.name));
check("publicationState default", articles.args.find((a) => a.name === "publicationState").defaultValue === "LIVE",
  articles.args.find((a) => a.name === "publicationState").defaultValue);

// 2. Each operation must validate against the client schema, then run.
async function run(name, query, variables, expect) {
  const errors = validate(schema, parse(query));
  if (errors.length) {
    fail(`${name} validates`, errors.map((e) => e.message));
    return null;
  }
  const res = await post(query, variables);
  if (res.status !== 200 || res.body.errors) {
    fail(`${name} runs`, res.body);
    return null;
  }
  try {
    expect?.(res.body.data);
    passed++;
  } catch (e) {
    fail(name, `${e.message}: ${JSON.stringify(res.body.data)}`);
  }
  return res.body.data;
}
const assert = (cond, msg) => { if (!cond) throw new Error(msg); };

const hasAccounts = !!schema.getMutationType().getFields().register;
if (hasAccounts) {
  await run("register", `mutation Register($input: UsersPermissionsRegisterInput!) { register(input: $input) { jwt user { username email } } }`,
    { input: { username: "e2e", email: "e2e@example.com", password: "secret123" } },
    (d) => assert(d.register.user.username === "e2e", "username"));
  const login = await run("login", `mutation Login($input: UsersPermissionsLoginInput!) { login(input: $input) { jwt } }`,
    { input: { identifier: "e2e@example.com", password: "secret123" } }, (d) => assert(d.login.jwt, "jwt"));
  token = login?.login.jwt ?? "";
  await run("me", `{ me { username email } }`, undefined, (d) => assert(d.me.username === "e2e", "me"));
}

const tag = await run("createTag", `mutation CreateTag($data: TagInput!) { createTag(data: $data) { data { id attributes { name } } } }`,
  { data: { name: "e2e-tag" } }, (d) => assert(d.createTag.data.id, "id"));
const cat = await run("createCategory", `mutation { createCategory(data: { name: "e2e-cat" }) { data { id } } }`);
const created = await run("createArticle",
  `mutation CreateArticle($data: ArticleInput!) {
    createArticle(data: $data) {
      data { id attributes { title views kind publishedAt category { data { id } } tags { data { id } }
        seo { metaTitle } blocks { __typename ... on ComponentSharedQuote { body } } } }
    }
  }`,
  { data: { title: "From graphql-js", views: 3, kind: "tutorial", category: cat?.createCategory.data.id,
    tags: [tag?.createTag.data.id], seo: { metaTitle: "seo" }, blocks: [{ __typename: "ComponentSharedQuote", body: "q" }] } },
  (d) => {
    const a = d.createArticle.data.attributes;
    assert(a.title === "From graphql-js" && a.kind === "tutorial", "fields");
    assert(a.publishedAt, "published by default");
    assert(a.category.data.id === cat.createCategory.data.id, "relation");
    assert(a.blocks[0].__typename === "ComponentSharedQuote", "zone");
  });
const id = created?.createArticle.data.id;

await run("articles",
  `query Articles($filters: ArticleFiltersInput, $pagination: PaginationArg, $sort: [String], $state: PublicationState) {
    articles(filters: $filters, pagination: $pagination, sort: $sort, publicationState: $state) {
      data { id attributes { title tags(pagination: { limit: 5 }) { data { attributes { name } } } } }
      meta { pagination { total page pageSize pageCount } }
    }
  }`,
  { filters: { or: [{ title: { containsi: "graphql" } }, { views: { gt: 1000 } }], not: { kind: { eq: "news" } } },
    pagination: { page: 1, pageSize: 10 }, sort: ["title:asc"], state: "LIVE" },
  (d) => {
    assert(d.articles.data.length === 1 && d.articles.data[0].id === id, "filtered list");
    assert(d.articles.meta.pagination.total === 1 && d.articles.meta.pagination.pageSize === 10, "meta");
  });
await run("article", `query Article($id: ID) { article(id: $id) { data { id attributes { title } } } }`, { id },
  (d) => assert(d.article.data.attributes.title === "From graphql-js", "findOne"));
await run("updateArticle", `mutation Update($id: ID!, $data: ArticleInput!) { updateArticle(id: $id, data: $data) { data { attributes { title summary } } } }`,
  { id, data: { title: "Updated", summary: null } }, (d) => assert(d.updateArticle.data.attributes.title === "Updated", "updated"));
await run("draft", `mutation { createArticle(data: { title: "Draft" }, status: DRAFT) { data { attributes { publishedAt } } } }`, undefined,
  (d) => assert(d.createArticle.data.attributes.publishedAt === null, "draft"));
await run("preview", `{ articles(publicationState: PREVIEW) { meta { pagination { total } } } }`, undefined,
  (d) => assert(d.articles.meta.pagination.total === 2, "preview sees drafts"));
await run("updateGlobal", `mutation { updateGlobal(data: { siteName: "E2E" }) { data { attributes { siteName } } } }`, undefined,
  (d) => assert(d.updateGlobal.data.attributes.siteName === "E2E", "single type"));
await run("global", `{ global { data { id attributes { siteName defaultSeo { metaTitle } } } } }`, undefined,
  (d) => assert(d.global.data.attributes.siteName === "E2E", "single type read"));
await run("deleteArticle", `mutation Delete($id: ID!) { deleteArticle(id: $id) { data { id } } }`, { id },
  (d) => assert(d.deleteArticle.data.id === id, "deleted"));
await run("after delete", `query Article($id: ID) { article(id: $id) { data { id } } }`, { id },
  (d) => assert(d.article.data === null, "gone"));

// 3. What the reference rejects, the server rejects too.
const bad = `{ articles { data { id nosuchfield } } }`;
check("reference rejects", validate(schema, parse(bad)).length > 0, "validate accepted an unknown field");
const badRes = await post(bad);
check("server rejects", badRes.status === 400 && badRes.body.errors?.[0]?.extensions?.code === "GRAPHQL_VALIDATION_FAILED", badRes.body);

console.log(`${passed} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
