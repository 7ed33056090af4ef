// Renders the API's own OpenAPI document with Swagger UI. No validator badge (it would call another origin);
// "Try it out" calls this API like any client, and counts against the caller's rate limit like any request.
/* global SwaggerUIBundle */
window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#reference',
  validatorUrl: null,
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  displayRequestDuration: true,
  tryItOutEnabled: true,
});
