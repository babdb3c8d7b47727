from enum import StrEnum


class TemplateDocumentLayersItemType3Weight(StrEnum):
    BOLD = "bold"
    REGULAR = "regular"

    def __str__(self) -> str:
        return str(self.value)
