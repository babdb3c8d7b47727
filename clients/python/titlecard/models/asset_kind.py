from enum import StrEnum


class AssetKind(StrEnum):
    BACKGROUND = "background"
    FONT = "font"
    LOGO = "logo"

    def __str__(self) -> str:
        return str(self.value)
