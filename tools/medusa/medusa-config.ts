// The Medusa v2 server of the locator's products sync test (make
// test-medusa, tools/medusa/medusa.sh). Everything comes from the
// environment the script sets: the database, the secrets of this
// throw-away server. No Redis: Medusa then keeps its event bus, locks and
// workflows in memory, which is enough for one test process. The admin
// dashboard is off (it would need a Vite build).
import { loadEnv, defineConfig } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: process.env.STORE_CORS || "http://127.0.0.1",
      adminCors: process.env.ADMIN_CORS || "http://127.0.0.1",
      authCors: process.env.AUTH_CORS || "http://127.0.0.1",
      jwtSecret: process.env.JWT_SECRET || "locator-test-only",
      cookieSecret: process.env.COOKIE_SECRET || "locator-test-only",
    },
  },
  admin: { disable: true },
})
