/** The tools every Titlecard MCP server lists, sorted by name (both transports, both backends). */
export const TOOL_NAMES = [
  'card_image',
  'check_layout',
  'create_render_url',
  'delete_image',
  'generate_image',
  'get_batch',
  'get_template',
  'get_usage',
  'list_images',
  'list_presets',
  'list_templates',
  'preview_card',
  'start_batch',
  'validate_token',
];
