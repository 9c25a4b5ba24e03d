-- A database made by the code before numbered migrations (GORM AutoMigrate),
-- with a user ada (password Lovelace1815), an admin, a read-only API token,
-- an uploaded image and an article. Generated with pg_dump --inserts, the
-- schema name, psql-only lines and lz4 compression removed: load it with search_path set.
-- token: 43f36f20392e64f315dd173e7279e1a5aba7462c494daf5af2ef3fa9267db940e66d1879a2fbcee49f7468245d08712092c4d2a5643bc3e9193577241b2c30609f90dc4fbe02d56af635f43b99bdc5bc047b04a8c45f35315ba18ac4e58a4db0818b9aae37f7e94bcfa866943ce9be859d66c05683a82c0704e673c630c3ac77
SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;
SET default_tablespace = '';
SET default_table_access_method = heap;
CREATE TABLE articles (
    id bigint NOT NULL,
    document_id text NOT NULL,
    locale text DEFAULT ''::text NOT NULL,
    published_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    created_by_id bigint,
    updated_by_id bigint,
    data jsonb DEFAULT '{}'::jsonb NOT NULL,
    large jsonb DEFAULT '{}'::jsonb NOT NULL,
    extra jsonb DEFAULT '{}'::jsonb NOT NULL
);
CREATE SEQUENCE articles_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;
ALTER SEQUENCE articles_id_seq OWNED BY articles.id;
CREATE TABLE authors (
    id bigint NOT NULL,
    document_id text NOT NULL,
    locale text DEFAULT ''::text NOT NULL,
    published_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    created_by_id bigint,
    updated_by_id bigint,
    data jsonb DEFAULT '{}'::jsonb NOT NULL,
    large jsonb DEFAULT '{}'::jsonb NOT NULL,
    extra jsonb DEFAULT '{}'::jsonb NOT NULL
);
CREATE SEQUENCE authors_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;
ALTER SEQUENCE authors_id_seq OWNED BY authors.id;
CREATE TABLE categories (
    id bigint NOT NULL,
    document_id text NOT NULL,
    locale text DEFAULT ''::text NOT NULL,
    published_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    created_by_id bigint,
    updated_by_id bigint,
    data jsonb DEFAULT '{}'::jsonb NOT NULL,
    large jsonb DEFAULT '{}'::jsonb NOT NULL,
    extra jsonb DEFAULT '{}'::jsonb NOT NULL
);
CREATE SEQUENCE categories_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;
ALTER SEQUENCE categories_id_seq OWNED BY categories.id;
CREATE TABLE globals (
    id bigint NOT NULL,
    document_id text NOT NULL,
    locale text DEFAULT ''::text NOT NULL,
    published_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    created_by_id bigint,
    updated_by_id bigint,
    data jsonb DEFAULT '{}'::jsonb NOT NULL,
    large jsonb DEFAULT '{}'::jsonb NOT NULL,
    extra jsonb DEFAULT '{}'::jsonb NOT NULL
);
CREATE SEQUENCE globals_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;
ALTER SEQUENCE globals_id_seq OWNED BY globals.id;
CREATE TABLE stratum_admin_users (
    id bigint NOT NULL,
    document_id character varying(24) NOT NULL,
    firstname character varying(255) DEFAULT ''::character varying NOT NULL,
    lastname character varying(255) DEFAULT ''::character varying NOT NULL,
    email character varying(255) NOT NULL,
    password character varying(255) NOT NULL,
    is_active boolean DEFAULT true NOT NULL,
    blocked boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL
);
CREATE SEQUENCE stratum_admin_users_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;
ALTER SEQUENCE stratum_admin_users_id_seq OWNED BY stratum_admin_users.id;
CREATE TABLE stratum_api_tokens (
    id bigint NOT NULL,
    name character varying(255) NOT NULL,
    description character varying(1024) DEFAULT ''::character varying NOT NULL,
    type character varying(32) NOT NULL,
    access_key character varying(128) NOT NULL,
    last_used_at timestamp with time zone,
    expires_at timestamp with time zone,
    lifespan bigint,
    permissions text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL
);
CREATE SEQUENCE stratum_api_tokens_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;
ALTER SEQUENCE stratum_api_tokens_id_seq OWNED BY stratum_api_tokens.id;
CREATE TABLE stratum_counts (
    tbl text NOT NULL,
    published boolean NOT NULL,
    locale text NOT NULL,
    n bigint NOT NULL
);
CREATE TABLE stratum_definitions (
    uid text NOT NULL,
    kind text NOT NULL,
    body text NOT NULL,
    updated_at timestamp with time zone
);
CREATE TABLE stratum_files (
    id bigint NOT NULL,
    document_id text NOT NULL,
    name text NOT NULL,
    alternative_text text,
    caption text,
    width bigint,
    height bigint,
    formats text,
    hash text NOT NULL,
    ext text,
    mime text,
    size numeric,
    url text,
    created_at timestamp with time zone,
    updated_at timestamp with time zone
);
CREATE SEQUENCE stratum_files_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;
ALTER SEQUENCE stratum_files_id_seq OWNED BY stratum_files.id;
CREATE TABLE stratum_meta (
    key text NOT NULL,
    value text NOT NULL
);
CREATE TABLE stratum_versions (
    tbl text NOT NULL,
    v bigint NOT NULL
);
CREATE TABLE tags (
    id bigint NOT NULL,
    document_id text NOT NULL,
    locale text DEFAULT ''::text NOT NULL,
    published_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    created_by_id bigint,
    updated_by_id bigint,
    data jsonb DEFAULT '{}'::jsonb NOT NULL,
    large jsonb DEFAULT '{}'::jsonb NOT NULL,
    extra jsonb DEFAULT '{}'::jsonb NOT NULL
);
CREATE SEQUENCE tags_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;
ALTER SEQUENCE tags_id_seq OWNED BY tags.id;
CREATE TABLE up_permissions (
    id bigint NOT NULL,
    role_id bigint NOT NULL,
    action character varying(255) NOT NULL,
    created_at timestamp with time zone NOT NULL
);
CREATE SEQUENCE up_permissions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;
ALTER SEQUENCE up_permissions_id_seq OWNED BY up_permissions.id;
CREATE TABLE up_roles (
    id bigint NOT NULL,
    document_id character varying(24) NOT NULL,
    name character varying(255) NOT NULL,
    description character varying(1024) DEFAULT ''::character varying NOT NULL,
    type character varying(255) NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL
);
CREATE SEQUENCE up_roles_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;
ALTER SEQUENCE up_roles_id_seq OWNED BY up_roles.id;
CREATE TABLE up_users (
    id bigint NOT NULL,
    document_id character varying(24) NOT NULL,
    username character varying(255) NOT NULL,
    email character varying(255) NOT NULL,
    provider character varying(255) DEFAULT 'local'::character varying NOT NULL,
    password character varying(255) DEFAULT ''::character varying NOT NULL,
    reset_password_token character varying(255),
    confirmation_token character varying(255),
    confirmed boolean DEFAULT false NOT NULL,
    blocked boolean DEFAULT false NOT NULL,
    role_id bigint,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    published_at timestamp with time zone
);
CREATE SEQUENCE up_users_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;
ALTER SEQUENCE up_users_id_seq OWNED BY up_users.id;
ALTER TABLE ONLY articles ALTER COLUMN id SET DEFAULT nextval('articles_id_seq'::regclass);
ALTER TABLE ONLY authors ALTER COLUMN id SET DEFAULT nextval('authors_id_seq'::regclass);
ALTER TABLE ONLY categories ALTER COLUMN id SET DEFAULT nextval('categories_id_seq'::regclass);
ALTER TABLE ONLY globals ALTER COLUMN id SET DEFAULT nextval('globals_id_seq'::regclass);
ALTER TABLE ONLY stratum_admin_users ALTER COLUMN id SET DEFAULT nextval('stratum_admin_users_id_seq'::regclass);
ALTER TABLE ONLY stratum_api_tokens ALTER COLUMN id SET DEFAULT nextval('stratum_api_tokens_id_seq'::regclass);
ALTER TABLE ONLY stratum_files ALTER COLUMN id SET DEFAULT nextval('stratum_files_id_seq'::regclass);
ALTER TABLE ONLY tags ALTER COLUMN id SET DEFAULT nextval('tags_id_seq'::regclass);
ALTER TABLE ONLY up_permissions ALTER COLUMN id SET DEFAULT nextval('up_permissions_id_seq'::regclass);
ALTER TABLE ONLY up_roles ALTER COLUMN id SET DEFAULT nextval('up_roles_id_seq'::regclass);
ALTER TABLE ONLY up_users ALTER COLUMN id SET DEFAULT nextval('up_users_id_seq'::regclass);
INSERT INTO articles VALUES (1, 'umfyoooaimds2sqeesc1kpc4', '', NULL, '2026-11-23 21:38:30.354+00', '2026-11-23 21:38:30.354+00', NULL, NULL, '{"kind": "news", "slug": "written-before", "price": null, "title": "Written before", "views": 0, "rating": null, "shares": null, "featured": false, "publishDate": null, "publishTime": null, "scheduledAt": null, "contactEmail": null}', '{"body": null, "content": null, "summary": null, "metadata": null}', '{"cover": 1}');
INSERT INTO articles VALUES (2, 'umfyoooaimds2sqeesc1kpc4', '', '2026-11-23 21:38:30.354+00', '2026-11-23 21:38:30.354+00', '2026-11-23 21:38:30.354+00', NULL, NULL, '{"kind": "news", "slug": "written-before", "price": null, "title": "Written before", "views": 0, "rating": null, "shares": null, "featured": false, "publishDate": null, "publishTime": null, "scheduledAt": null, "contactEmail": null}', '{"body": null, "content": null, "summary": null, "metadata": null}', '{"cover": 1}');
INSERT INTO stratum_admin_users VALUES (1, 'm7dgdi1b1kzqshuajpnu3ck5', 'Root', '', 'root@example.com', '$2a$10$s..gf2OWreCFZc0INDOdxer2s9Sq.EEgy81PApBkuC2FRDq5ulNWO', true, false, '2026-11-23 21:38:30.292+00', '2026-11-23 21:38:30.292+00');
INSERT INTO stratum_api_tokens VALUES (1, 'reader', '', 'read-only', '1c3f98515a3f7170dcf2ccd283971187eaa4c735266dacff2d1b56adaeb759af64b7b97ecf880bad52b41785bb9b80d54c85a4a19b0edbb4fe15c72121fc9433', NULL, NULL, NULL, '[]', '2026-11-23 21:38:30.295+00', '2026-11-23 21:38:30.295+00');
INSERT INTO stratum_counts VALUES ('articles', false, '', 1);
INSERT INTO stratum_counts VALUES ('articles', true, '', 1);
INSERT INTO stratum_files VALUES (1, 'u9rnqjp448x9caby36ptngmn', 'Old Photo.png', 'From before', NULL, 300, 200, '{"thumbnail":{"name":"thumbnail_Old Photo.png","hash":"thumbnail_old_photo_3d3746d70a","ext":".png","mime":"image/png","path":null,"width":234,"height":156,"size":1.4,"sizeInBytes":1398,"url":"/uploads/thumbnail_old_photo_3d3746d70a.png"}}', 'old_photo_3d3746d70a', '.png', 'image/png', 0.83, '/uploads/old_photo_3d3746d70a.png', '2026-11-23 21:38:30.307+00', '2026-11-23 21:38:30.307+00');
INSERT INTO stratum_meta VALUES ('auth:schema', 'auth-1');
INSERT INTO stratum_meta VALUES ('secret:JWT_SECRET', 'cR+x7sXl51nY1V9nhJG9O746shiwFK25ZduMg7IlosQ=');
INSERT INTO stratum_meta VALUES ('secret:ADMIN_JWT_SECRET', 'yvfMi6c9xMOmKNdRfoQAxKP0ZzoFHZhjGhI/3jGCD1A=');
INSERT INTO stratum_meta VALUES ('secret:API_TOKEN_SALT', 'LqBrjHQ1IEYbbSwbBS0FS6odF4PK4UstEUp276xOjl0=');
INSERT INTO stratum_versions VALUES ('articles', 1);
INSERT INTO up_permissions VALUES (1, 1, 'plugin::users-permissions.auth.changePassword', '2026-11-23 21:38:30.113+00');
INSERT INTO up_permissions VALUES (2, 1, 'plugin::users-permissions.user.me', '2026-11-23 21:38:30.113+00');
INSERT INTO up_permissions VALUES (3, 2, 'plugin::users-permissions.auth.callback', '2026-11-23 21:38:30.115+00');
INSERT INTO up_permissions VALUES (4, 2, 'plugin::users-permissions.auth.connect', '2026-11-23 21:38:30.115+00');
INSERT INTO up_permissions VALUES (5, 2, 'plugin::users-permissions.auth.emailConfirmation', '2026-11-23 21:38:30.115+00');
INSERT INTO up_permissions VALUES (6, 2, 'plugin::users-permissions.auth.forgotPassword', '2026-11-23 21:38:30.115+00');
INSERT INTO up_permissions VALUES (7, 2, 'plugin::users-permissions.auth.register', '2026-11-23 21:38:30.115+00');
INSERT INTO up_permissions VALUES (8, 2, 'plugin::users-permissions.auth.resetPassword', '2026-11-23 21:38:30.115+00');
INSERT INTO up_permissions VALUES (9, 2, 'plugin::users-permissions.auth.sendEmailConfirmation', '2026-11-23 21:38:30.115+00');
INSERT INTO up_permissions VALUES (10, 2, 'api::article.article.create', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (11, 2, 'api::article.article.delete', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (12, 2, 'api::article.article.find', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (13, 2, 'api::article.article.findOne', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (14, 2, 'api::article.article.update', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (15, 2, 'api::author.author.create', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (16, 2, 'api::author.author.delete', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (17, 2, 'api::author.author.find', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (18, 2, 'api::author.author.findOne', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (19, 2, 'api::author.author.update', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (20, 2, 'api::category.category.create', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (21, 2, 'api::category.category.delete', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (22, 2, 'api::category.category.find', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (23, 2, 'api::category.category.findOne', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (24, 2, 'api::category.category.update', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (25, 2, 'api::global.global.create', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (26, 2, 'api::global.global.delete', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (27, 2, 'api::global.global.find', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (28, 2, 'api::global.global.findOne', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (29, 2, 'api::global.global.update', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (30, 2, 'api::tag.tag.create', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (31, 2, 'api::tag.tag.delete', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (32, 2, 'api::tag.tag.find', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (33, 2, 'api::tag.tag.findOne', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (34, 2, 'api::tag.tag.update', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (35, 2, 'plugin::upload.content-api.find', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (36, 2, 'plugin::upload.content-api.findOne', '2026-11-23 21:38:30.117+00');
INSERT INTO up_permissions VALUES (37, 2, 'plugin::upload.content-api.upload', '2026-11-23 21:38:30.117+00');
INSERT INTO up_roles VALUES (1, 'l8sq4bh01udqpx1fuorjfasz', 'Authenticated', 'Default role given to authenticated user.', 'authenticated', '2026-11-23 21:38:30.112+00', '2026-11-23 21:38:30.112+00');
INSERT INTO up_roles VALUES (2, 'np6141wqymwyi9e7xpjhfd2r', 'Public', 'Default role given to unauthenticated user.', 'public', '2026-11-23 21:38:30.115+00', '2026-11-23 21:38:30.115+00');
INSERT INTO up_users VALUES (1, 'uob1020hcrhsbm7b2zczk2da', 'ada', 'ada@example.com', 'local', '$2a$10$nT5.VeQvaJxK8ajlWVnR5exLtg.xcxNhJh97UzF2DdwV6fpDWRJDa', NULL, NULL, true, false, 1, '2026-11-23 21:38:30.221+00', '2026-11-23 21:38:30.221+00', '2026-11-23 21:38:30.221+00');
SELECT pg_catalog.setval('articles_id_seq', 2, true);
SELECT pg_catalog.setval('authors_id_seq', 1, false);
SELECT pg_catalog.setval('categories_id_seq', 1, false);
SELECT pg_catalog.setval('globals_id_seq', 1, false);
SELECT pg_catalog.setval('stratum_admin_users_id_seq', 1, true);
SELECT pg_catalog.setval('stratum_api_tokens_id_seq', 1, true);
SELECT pg_catalog.setval('stratum_files_id_seq', 1, true);
SELECT pg_catalog.setval('tags_id_seq', 1, false);
SELECT pg_catalog.setval('up_permissions_id_seq', 37, true);
SELECT pg_catalog.setval('up_roles_id_seq', 2, true);
SELECT pg_catalog.setval('up_users_id_seq', 1, true);
ALTER TABLE ONLY articles
    ADD CONSTRAINT articles_pkey PRIMARY KEY (id);
ALTER TABLE ONLY authors
    ADD CONSTRAINT authors_pkey PRIMARY KEY (id);
ALTER TABLE ONLY categories
    ADD CONSTRAINT categories_pkey PRIMARY KEY (id);
ALTER TABLE ONLY globals
    ADD CONSTRAINT globals_pkey PRIMARY KEY (id);
ALTER TABLE ONLY stratum_admin_users
    ADD CONSTRAINT stratum_admin_users_pkey PRIMARY KEY (id);
ALTER TABLE ONLY stratum_api_tokens
    ADD CONSTRAINT stratum_api_tokens_pkey PRIMARY KEY (id);
ALTER TABLE ONLY stratum_counts
    ADD CONSTRAINT stratum_counts_pkey PRIMARY KEY (tbl, published, locale);
ALTER TABLE ONLY stratum_definitions
    ADD CONSTRAINT stratum_definitions_pkey PRIMARY KEY (uid);
ALTER TABLE ONLY stratum_files
    ADD CONSTRAINT stratum_files_pkey PRIMARY KEY (id);
ALTER TABLE ONLY stratum_meta
    ADD CONSTRAINT stratum_meta_pkey PRIMARY KEY (key);
ALTER TABLE ONLY stratum_versions
    ADD CONSTRAINT stratum_versions_pkey PRIMARY KEY (tbl);
ALTER TABLE ONLY tags
    ADD CONSTRAINT tags_pkey PRIMARY KEY (id);
ALTER TABLE ONLY up_permissions
    ADD CONSTRAINT up_permissions_pkey PRIMARY KEY (id);
ALTER TABLE ONLY up_roles
    ADD CONSTRAINT up_roles_pkey PRIMARY KEY (id);
ALTER TABLE ONLY up_users
    ADD CONSTRAINT up_users_pkey PRIMARY KEY (id);
CREATE INDEX articles_author_rel ON articles USING btree (((extra ->> 'author'::text)));
CREATE INDEX articles_category_rel ON articles USING btree (((extra ->> 'category'::text)));
CREATE INDEX articles_data_gin ON articles USING gin (data jsonb_path_ops);
CREATE UNIQUE INDEX articles_doc_uq ON articles USING btree (document_id, locale, ((published_at IS NULL)));
CREATE INDEX articles_draft_idx ON articles USING btree (id) WHERE (published_at IS NULL);
CREATE INDEX articles_extra_gin ON articles USING gin (extra jsonb_path_ops);
CREATE INDEX articles_kind_tix ON articles USING btree (((data ->> 'kind'::text)), id);
CREATE INDEX articles_price_nix ON articles USING btree ((((data ->> 'price'::text))::numeric), id);
CREATE INDEX articles_pub_idx ON articles USING btree (id) WHERE (published_at IS NOT NULL);
CREATE INDEX "articles_publishDate_tix" ON articles USING btree (((data ->> 'publishDate'::text)), id);
CREATE INDEX "articles_publishTime_tix" ON articles USING btree (((data ->> 'publishTime'::text)), id);
CREATE INDEX articles_rating_nix ON articles USING btree ((((data ->> 'rating'::text))::numeric), id);
CREATE INDEX "articles_scheduledAt_tix" ON articles USING btree (((data ->> 'scheduledAt'::text)), id);
CREATE INDEX articles_shares_nix ON articles USING btree ((((data ->> 'shares'::text))::numeric), id);
CREATE UNIQUE INDEX articles_slug_uq ON articles USING btree (((data ->> 'slug'::text)), locale) WHERE (published_at IS NOT NULL);
CREATE INDEX articles_title_tix ON articles USING btree (((data ->> 'title'::text)), id);
CREATE INDEX articles_views_nix ON articles USING btree ((((data ->> 'views'::text))::numeric), id);
CREATE INDEX authors_data_gin ON authors USING gin (data jsonb_path_ops);
CREATE UNIQUE INDEX authors_doc_uq ON authors USING btree (document_id, locale, ((published_at IS NULL)));
CREATE INDEX authors_draft_idx ON authors USING btree (id) WHERE (published_at IS NULL);
CREATE UNIQUE INDEX authors_email_uq ON authors USING btree (((data ->> 'email'::text)), locale) WHERE (published_at IS NOT NULL);
CREATE INDEX authors_extra_gin ON authors USING gin (extra jsonb_path_ops);
CREATE INDEX authors_pub_idx ON authors USING btree (id) WHERE (published_at IS NOT NULL);
CREATE INDEX categories_data_gin ON categories USING gin (data jsonb_path_ops);
CREATE UNIQUE INDEX categories_doc_uq ON categories USING btree (document_id, locale, ((published_at IS NULL)));
CREATE INDEX categories_draft_idx ON categories USING btree (id) WHERE (published_at IS NULL);
CREATE INDEX categories_extra_gin ON categories USING gin (extra jsonb_path_ops);
CREATE UNIQUE INDEX categories_name_uq ON categories USING btree (((data ->> 'name'::text)), locale) WHERE (published_at IS NOT NULL);
CREATE INDEX categories_parent_rel ON categories USING btree (((extra ->> 'parent'::text)));
CREATE INDEX categories_pub_idx ON categories USING btree (id) WHERE (published_at IS NOT NULL);
CREATE UNIQUE INDEX categories_slug_uq ON categories USING btree (((data ->> 'slug'::text)), locale) WHERE (published_at IS NOT NULL);
CREATE INDEX globals_data_gin ON globals USING gin (data jsonb_path_ops);
CREATE UNIQUE INDEX globals_doc_uq ON globals USING btree (document_id, locale, ((published_at IS NULL)));
CREATE INDEX globals_draft_idx ON globals USING btree (id) WHERE (published_at IS NULL);
CREATE INDEX globals_extra_gin ON globals USING gin (extra jsonb_path_ops);
CREATE INDEX globals_pub_idx ON globals USING btree (id) WHERE (published_at IS NOT NULL);
CREATE INDEX idx_stratum_files_document_id ON stratum_files USING btree (document_id);
CREATE UNIQUE INDEX idx_stratum_files_hash ON stratum_files USING btree (hash);
CREATE UNIQUE INDEX stratum_admin_users_email_uq ON stratum_admin_users USING btree (email);
CREATE UNIQUE INDEX stratum_api_tokens_access_key_uq ON stratum_api_tokens USING btree (access_key);
CREATE UNIQUE INDEX stratum_api_tokens_name_uq ON stratum_api_tokens USING btree (name);
CREATE INDEX tags_data_gin ON tags USING gin (data jsonb_path_ops);
CREATE UNIQUE INDEX tags_doc_uq ON tags USING btree (document_id, locale, ((published_at IS NULL)));
CREATE INDEX tags_draft_idx ON tags USING btree (id) WHERE (published_at IS NULL);
CREATE INDEX tags_extra_gin ON tags USING gin (extra jsonb_path_ops);
CREATE UNIQUE INDEX tags_name_uq ON tags USING btree (((data ->> 'name'::text)), locale) WHERE (published_at IS NOT NULL);
CREATE INDEX tags_pub_idx ON tags USING btree (id) WHERE (published_at IS NOT NULL);
CREATE UNIQUE INDEX up_permissions_role_action_uq ON up_permissions USING btree (role_id, action);
CREATE UNIQUE INDEX up_roles_name_uq ON up_roles USING btree (name);
CREATE UNIQUE INDEX up_roles_type_uq ON up_roles USING btree (type);
CREATE UNIQUE INDEX up_users_email_uq ON up_users USING btree (email);
CREATE INDEX up_users_role_idx ON up_users USING btree (role_id);
CREATE UNIQUE INDEX up_users_username_uq ON up_users USING btree (username);
