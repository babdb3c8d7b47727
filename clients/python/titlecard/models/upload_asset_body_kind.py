from enum import StrEnum


class UploadAssetBodyKind(StrEnum):
    BACKGROUND = "background"
    LOGO = "logo"

    def __str__(self) -> str:
        return str(self.value)
