from enum import StrEnum


class PresetRequestAspect(StrEnum):
    OG = "og"
    PORTRAIT = "portrait"
    SQUARE = "square"

    def __str__(self) -> str:
        return str(self.value)
