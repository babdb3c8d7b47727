from enum import StrEnum


class BatchStatus(StrEnum):
    CANCELLED = "cancelled"
    COMPLETED = "completed"
    QUEUED = "queued"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
