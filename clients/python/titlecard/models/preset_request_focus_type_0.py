from enum import StrEnum


class PresetRequestFocusType0(StrEnum):
    ATTENTION = "attention"
    AUTO = "auto"
    CENTER = "center"

    def __str__(self) -> str:
        return str(self.value)
