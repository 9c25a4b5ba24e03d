module.exports = ({ env }) => ({ connection: { client: 'sqlite' } });
