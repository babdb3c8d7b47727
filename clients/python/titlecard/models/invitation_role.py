from enum import StrEnum


class InvitationRole(StrEnum):
    ADMIN = "admin"
    EDITOR = "editor"
    OWNER = "owner"
    VIEWER = "viewer"

    def __str__(self) -> str:
        return str(self.value)
