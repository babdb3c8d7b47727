from enum import StrEnum


class PresetRequestTemplateName(StrEnum):
    AUTO = "auto"
    BOTTOM_LEFT = "bottom-left"
    LEFT = "left"
    RIGHT = "right"
    SPLIT = "split"

    def __str__(self) -> str:
        return str(self.value)
