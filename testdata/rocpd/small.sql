-- A hand-made rocpd database, schema version 3, as rocprofiler-sdk's rocprofv3 writes it (the
-- tables carry the process's uuid as a suffix, plain-named views select from them): the columns
-- profana reads, from rocprofiler-sdk's rocpd_tables.sql and rocpd_views.sql.
-- One process (pid 4242, one thread) on an MI300X, times in ns:
--   roctx "train step"                 500 .. 9500   a user annotation
--   roctx "aten::mm, seq = 7, op_id = 3, sizes = [[4, 8], [8, 2]]"
--                                     1000 .. 9000   the op aten::mm, sequence number 7, shapes
--   hipLaunchKernel                   2000 .. 2500   correlation (stack id) 2
--   hipMemcpyAsync                    3000 .. 3400   correlation 3
--   hsa_signal_wait_scacquire         9600 .. 9700   a driver call
--   kernel "void gemm_kernel<float>(float*)"  4000 .. 6000 on GPU 0, stream 1, correlation 2
--   copy MEMORY_COPY_HOST_TO_DEVICE   6500 .. 7000 to GPU 0, stream 1, correlation 3
-- So aten::mm: CPU total 8.000 us, self CPU 8.000 - 0.500 - 0.400 = 7.100 us, and its launch
-- and copy call put the kernel (2.000 us) and the copy (0.500 us) under it.
CREATE TABLE `rocpd_metadata_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b` ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "tag" TEXT NOT NULL, "value" TEXT NOT NULL);
INSERT INTO `rocpd_metadata_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b` (tag, value) VALUES ('schema_version', '3'), ('uuid', '_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b'), ('guid', '0199a2b3-7c4d-7e8f-9a0b-1c2d3e4f5a6b');
CREATE TABLE `rocpd_string_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b` ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "guid" TEXT DEFAULT "0199a2b3-7c4d-7e8f-9a0b-1c2d3e4f5a6b" NOT NULL, "string" TEXT NOT NULL UNIQUE ON CONFLICT ABORT);
INSERT INTO `rocpd_string_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b` (id, string) VALUES
  (1, ''), (2, 'HIP_RUNTIME_API_EXT'), (3, 'MARKER_CORE_API'), (4, 'KERNEL_DISPATCH'), (5, 'MEMORY_COPY'),
  (6, 'hipLaunchKernel'), (7, 'roctxRangePushA'), (8, 'hipMemcpyAsync'), (9, 'MEMORY_COPY_HOST_TO_DEVICE'),
  (10, 'HSA_CORE_API'), (11, 'hsa_signal_wait_scacquire');
CREATE TABLE `rocpd_info_agent_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b` ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "guid" TEXT DEFAULT "0199a2b3-7c4d-7e8f-9a0b-1c2d3e4f5a6b" NOT NULL, "nid" INTEGER NOT NULL, "pid" INTEGER NOT NULL, "type" TEXT CHECK ("type" IN ('CPU', 'GPU')), "absolute_index" INTEGER, "logical_index" INTEGER, "type_index" INTEGER, "uuid" INTEGER, "name" TEXT, "model_name" TEXT, "vendor_name" TEXT, "product_name" TEXT, "user_name" TEXT, "extdata" JSONB DEFAULT "{}" NOT NULL);
INSERT INTO `rocpd_info_agent_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b` (id, nid, pid, type, absolute_index, logical_index, type_index, name, product_name) VALUES
  (10, 1, 4242, 'CPU', 0, 0, 0, 'AMD EPYC 9654 96-Core Processor', 'AMD EPYC 9654 96-Core Processor'),
  (11, 1, 4242, 'GPU', 1, 1, 0, 'gfx942', 'AMD Instinct MI300X');
CREATE TABLE `rocpd_info_kernel_symbol_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b` ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "guid" TEXT DEFAULT "0199a2b3-7c4d-7e8f-9a0b-1c2d3e4f5a6b" NOT NULL, "nid" INTEGER NOT NULL, "pid" INTEGER NOT NULL, "code_object_id" INTEGER NOT NULL, "kernel_name" TEXT, "display_name" TEXT, "kernel_object" INTEGER, "kernarg_segment_size" INTEGER, "kernarg_segment_alignment" INTEGER, "group_segment_size" INTEGER, "private_segment_size" INTEGER, "sgpr_count" INTEGER, "arch_vgpr_count" INTEGER, "accum_vgpr_count" INTEGER, "extdata" JSONB DEFAULT "{}" NOT NULL);
INSERT INTO `rocpd_info_kernel_symbol_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b` (id, nid, pid, code_object_id, kernel_name, display_name) VALUES
  (1, 1, 4242, 1, '_Z11gemm_kernelIfEvPT_.kd', 'void gemm_kernel<float>(float*)');
CREATE TABLE `rocpd_event_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b` ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "guid" TEXT DEFAULT "0199a2b3-7c4d-7e8f-9a0b-1c2d3e4f5a6b" NOT NULL, "category_id" INTEGER, "stack_id" INTEGER, "parent_stack_id" INTEGER, "correlation_id" INTEGER, "call_stack" JSONB DEFAULT "{}" NOT NULL, "line_info" JSONB DEFAULT "{}" NOT NULL, "extdata" JSONB DEFAULT "{}" NOT NULL);
INSERT INTO `rocpd_event_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b` (id, category_id, stack_id, parent_stack_id, correlation_id, extdata) VALUES
  (1, 3, 1, 0, 0, '{"message":"aten::mm, seq = 7, op_id = 3, sizes = [[4, 8], [8, 2]]"}'),
  (2, 2, 2, 1, 0, '{}'),
  (3, 4, 2, 2, 0, '{}'),
  (4, 2, 3, 1, 0, '{}'),
  (5, 5, 3, 3, 0, '{}'),
  (6, 3, 4, 0, 0, '{"message":"train step"}'),
  (7, 10, 5, 0, 0, '{}');
CREATE TABLE `rocpd_region_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b` ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "guid" TEXT DEFAULT "0199a2b3-7c4d-7e8f-9a0b-1c2d3e4f5a6b" NOT NULL, "nid" INTEGER NOT NULL, "pid" INTEGER NOT NULL, "tid" INTEGER NOT NULL, "start" BIGINT NOT NULL, "end" BIGINT NOT NULL, "name_id" INTEGER NOT NULL, "event_id" INTEGER, "extdata" JSONB DEFAULT "{}" NOT NULL);
INSERT INTO `rocpd_region_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b` (id, nid, pid, tid, start, "end", name_id, event_id) VALUES
  (1, 1, 4242, 4242, 1000, 9000, 7, 1),
  (2, 1, 4242, 4242, 2000, 2500, 6, 2),
  (3, 1, 4242, 4242, 3000, 3400, 8, 4),
  (4, 1, 4242, 4242, 500, 9500, 7, 6),
  (5, 1, 4242, 4242, 9600, 9700, 11, 7);
CREATE TABLE `rocpd_kernel_dispatch_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b` ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "guid" TEXT DEFAULT "0199a2b3-7c4d-7e8f-9a0b-1c2d3e4f5a6b" NOT NULL, "nid" INTEGER NOT NULL, "pid" INTEGER NOT NULL, "tid" INTEGER, "agent_id" INTEGER NOT NULL, "kernel_id" INTEGER NOT NULL, "dispatch_id" INTEGER NOT NULL, "queue_id" INTEGER NOT NULL, "stream_id" INTEGER NOT NULL, "start" BIGINT NOT NULL, "end" BIGINT NOT NULL, "private_segment_size" INTEGER, "group_segment_size" INTEGER, "workgroup_size_x" INTEGER NOT NULL, "workgroup_size_y" INTEGER NOT NULL, "workgroup_size_z" INTEGER NOT NULL, "grid_size_x" INTEGER NOT NULL, "grid_size_y" INTEGER NOT NULL, "grid_size_z" INTEGER NOT NULL, "region_name_id" INTEGER, "event_id" INTEGER, "extdata" JSONB DEFAULT "{}" NOT NULL);
INSERT INTO `rocpd_kernel_dispatch_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b` (id, nid, pid, tid, agent_id, kernel_id, dispatch_id, queue_id, stream_id, start, "end", workgroup_size_x, workgroup_size_y, workgroup_size_z, grid_size_x, grid_size_y, grid_size_z, region_name_id, event_id) VALUES
  (1, 1, 4242, 4242, 11, 1, 1, 1, 1, 4000, 6000, 256, 1, 1, 1024, 1, 1, 1, 3);
CREATE TABLE `rocpd_memory_copy_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b` ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "guid" TEXT DEFAULT "0199a2b3-7c4d-7e8f-9a0b-1c2d3e4f5a6b" NOT NULL, "nid" INTEGER NOT NULL, "pid" INTEGER NOT NULL, "tid" INTEGER, "start" BIGINT NOT NULL, "end" BIGINT NOT NULL, "name_id" INTEGER NOT NULL, "dst_agent_id" INTEGER, "dst_address" INTEGER, "src_agent_id" INTEGER, "src_address" INTEGER, "size" INTEGER NOT NULL, "queue_id" INTEGER, "stream_id" INTEGER, "region_name_id" INTEGER, "event_id" INTEGER, "extdata" JSONB DEFAULT "{}" NOT NULL);
INSERT INTO `rocpd_memory_copy_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b` (id, nid, pid, tid, start, "end", name_id, dst_agent_id, src_agent_id, size, stream_id, event_id) VALUES
  (1, 1, 4242, 4242, 6500, 7000, 9, 11, 10, 4096, 1, 5);
CREATE VIEW `rocpd_string` AS SELECT * FROM `rocpd_string_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b`;
CREATE VIEW `rocpd_region` AS SELECT * FROM `rocpd_region_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b`;
CREATE VIEW `rocpd_kernel_dispatch` AS SELECT * FROM `rocpd_kernel_dispatch_0199a2b3_7c4d_7e8f_9a0b_1c2d3e4f5a6b`;
