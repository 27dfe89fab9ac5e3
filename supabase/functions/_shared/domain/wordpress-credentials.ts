// The WordPress credentials dialog (spec section 5): username and application password, both
// required and trimmed, plus the site when the profile has no podcast website. The SPA's dialog
// and `POST /api/oauth/wordpress/connect` validate with this one schema.
import { z } from 'zod/mini';

export const MISSING_WORDPRESS_CREDENTIALS = 'Please enter both username and application password';
const INVALID_WORDPRESS_SITE = 'Please enter the address of your WordPress site (https://...)';

const required = z.pipe(z.string().check(z.trim()), z.string().check(z.minLength(1, MISSING_WORDPRESS_CREDENTIALS), z.maxLength(500)));

export const wordpressCredentialsSchema = z.object({
  username: required,
  password: required,
  siteUrl: z.optional(
    z.pipe(
      z.string().check(z.trim()),
      z.string().check(
        z.maxLength(2000),
        z.refine((value) => value === '' || /^https?:\/\/[^\s/]+/i.test(value), INVALID_WORDPRESS_SITE),
      ),
    ),
  ),
});

export type WordpressCredentials = z.infer<typeof wordpressCredentialsSchema>;
