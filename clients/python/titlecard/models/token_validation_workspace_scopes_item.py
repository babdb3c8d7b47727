from enum import StrEnum


class TokenValidationWorkspaceScopesItem(StrEnum):
    IMAGESREAD = "images:read"
    IMAGESWRITE = "images:write"
    SITESWRITE = "sites:write"
    TEMPLATESWRITE = "templates:write"
    USAGEREAD = "usage:read"
    WEBHOOKSWRITE = "webhooks:write"
    WORKSPACEADMIN = "workspace:admin"

    def __str__(self) -> str:
        return str(self.value)
